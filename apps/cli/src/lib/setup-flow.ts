import { type Brand, type MeResponse, shownEndpoint, shownUrl } from '@brandwire/client';
import { CliError, usageError } from './cli-error';
import { EXIT } from './exit-codes';
import { DEFAULT_COMMANDS_PORT, type GatewaySettings, type Session, type StoredConfig, writeConfig } from './config-store';
import { withProvider } from './ai-model';
import { checkCommandsSecret } from './commands-secret';
import { checkEndpoint, clientFor, sessionEndpoint } from './connect';
import { DEFAULT_KNOWLEDGE_QUERY_PORT } from './data-dir';

/** Asks a person, on a terminal only. */
export interface Prompter {
  endpoint(current: string): Promise<string>;
  key(): Promise<string>;
  channel(choices: Array<{ key: string; label: string }>, current: string | undefined): Promise<string | undefined>;
}

/** The team chats the gateway posts to, as its relay settings take them (apps/gateway/src/relay/relay-settings.ts). */
export const TEAM_CHAT_TYPES = ['slack', 'teams', 'discord', 'webhook'] as const;

/** The gateway settings `--no-sink`, `--no-crm` and `--no-commands` remove. */
export type RemovableGatewayPart = 'sink' | 'crm' | 'commands';

export interface SetupInput {
  key: string | undefined;
  endpoint: string | undefined;
  channel: string | undefined;
  dryRun: boolean;
  gateway: GatewaySettings;
  /** the loopback port of the gateway's knowledge query API (`knowledge.queryPort`); the parser keeps it in 1..65535 */
  queryPort?: number;
  /** the gateway settings to remove; given values of these parts are refused by the flags' parser */
  removeGateway?: readonly RemovableGatewayPart[];
  /** present when stdin and stdout are terminals */
  prompter: Prompter | undefined;
}

export interface SetupResult {
  ok: true;
  stored: boolean;
  endpoint: string;
  name: string;
  scope: string;
  channel: string | null;
  configPath: string;
  brands: Brand[];
  /** the gateway settings stored (or, with --dry-run, that would be), secrets shown only as "set" */
  gateway?: GatewaySettings;
  /** the knowledge query port stored (or, with --dry-run, that would be), when one is set */
  knowledge?: { queryPort: number };
}

function channelsOf(me: MeResponse): Array<{ key: string; label: string }> {
  return me.brands.flatMap((b) => b.channels.map((c) => ({ key: c.key, label: `${c.key} (${c.name}, brand ${b.id})` })));
}

/** Only the gateway settings given now replace the stored ones, and the parts in `remove` go; secrets stay in the 0600 file. */
function mergeGateway(stored: GatewaySettings | undefined, given: GatewaySettings, remove: readonly RemovableGatewayPart[]): GatewaySettings | undefined {
  const merged: GatewaySettings = { ...stored };
  for (const part of ['sink', 'crm', 'commands', 'ai'] as const) {
    const values = Object.fromEntries(Object.entries(given[part] ?? {}).filter(([, v]) => v !== undefined));
    if (Object.keys(values).length > 0) merged[part] = { ...keptOf(part, stored, given), ...values };
  }
  for (const part of remove) delete merged[part];
  return Object.keys(merged).length > 0 ? merged : undefined;
}

/** What of a stored part a change keeps: another AI provider, team-chat sink or CRM does not get the stored one's secrets. */
function keptOf(part: keyof GatewaySettings, stored: GatewaySettings | undefined, given: GatewaySettings): object | undefined {
  switch (part) {
    case 'ai':
      return withProvider(stored?.ai, given.ai?.provider);
    case 'sink':
      return withoutTokenWhenMoved(stored?.sink, given.sink);
    case 'crm':
      return withoutTokenWhenMoved(stored?.crm, given.crm);
    case 'commands':
      return stored?.commands;
  }
}

/** The stored token goes with its url and type: a sink or CRM given another one would send it elsewhere. */
function withoutTokenWhenMoved(stored: { url?: string; type?: string; token?: string } | undefined, given: { url?: string; type?: string } | undefined): object | undefined {
  const moved = (['url', 'type'] as const).some((key) => given?.[key] !== undefined && given[key] !== stored?.[key]);
  if (!stored || !moved) return stored;
  return Object.fromEntries(Object.entries(stored).filter(([key]) => key !== 'token'));
}

/** A sink or CRM url the gateway would refuse at its start is refused now; the value is not repeated (its path may be a secret). */
function checkRelayUrl(value: string | undefined, flag: string, off: string): void {
  if (value === undefined) return;
  let protocol: string | undefined;
  try {
    protocol = new URL(value).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol === 'http:' || protocol === 'https:') return;
  const got = value === '' ? 'an empty value' : protocol ? `${protocol}…` : 'something that is not a URL';
  throw usageError(`${flag} must be an http or https URL, got ${got}`, `to stop relaying there, pass ${off}`);
}

function checkGatewayInput(given: GatewaySettings, merged: GatewaySettings | undefined, remove: readonly RemovableGatewayPart[]): void {
  checkRelayUrl(given.sink?.url, '--sink-url', '--no-sink');
  checkRelayUrl(given.crm?.url, '--crm-url', '--no-crm');
  if (remove.includes('sink') && merged?.commands?.secret) {
    throw usageError("--no-sink would leave the team chat's commands (gateway.commands) without a team chat", 'add --no-commands to remove them too');
  }
  // a secret that cannot be the team chat's (given now, or stored for another type) is refused before anything is asked
  checkCommandsSecret(merged, given.commands?.secret === undefined ? 'stored' : 'flag');
}

/** The gateway serves its knowledge query API and takes the team chat's commands on two loopback ports: never one. */
function checkPorts(input: SetupInput, gateway: GatewaySettings | undefined, queryPort: number | undefined): void {
  if (!gateway?.commands?.secret) return;
  const given = input.queryPort !== undefined || input.gateway.commands?.port !== undefined || input.gateway.commands?.secret !== undefined;
  const commandsPort = gateway.commands.port ?? DEFAULT_COMMANDS_PORT;
  if (!given || commandsPort !== (queryPort ?? DEFAULT_KNOWLEDGE_QUERY_PORT)) return;
  throw usageError(
    `the knowledge query port (knowledge.queryPort) and the team chat's commands port (gateway.commands.port) are both ${commandsPort}: the gateway needs two ports`,
    'pass another --query-port or --commands-port',
  );
}

/** The settings with every secret replaced by "set": what may be shown. */
function withoutSecrets({ sink, crm, commands, ai }: GatewaySettings): GatewaySettings {
  const hidden = <T extends object>(part: T, secret: keyof T): T => (part[secret] === undefined ? part : { ...part, [secret]: 'set' });
  // a Slack or Discord webhook url is itself the secret, and a CRM's often holds one: their paths are not shown
  const masked = <T extends { url?: string; token?: string }>(part: T): T => ({ ...hidden(part, 'token'), ...(part.url !== undefined && { url: shownUrl(part.url, 'hidden') ?? 'set' }) });
  return {
    ...(sink && { sink: masked(sink) }),
    ...(crm && { crm: masked(crm) }),
    ...(commands && { commands: hidden(commands, 'secret') }),
    ...(ai && { ai: hidden(ai, 'apiKey') }),
  };
}

async function chooseChannel(input: SetupInput, me: MeResponse, stored: string | undefined): Promise<string | undefined> {
  const channels = channelsOf(me);
  if (input.channel) {
    if (!channels.some((c) => c.key === input.channel)) {
      throw usageError(`--channel ${input.channel} is not a channel of this key; it has: ${channels.map((c) => c.key).join(', ') || 'none'}`);
    }
    return input.channel;
  }
  if (channels.length === 1) return channels[0]?.key;
  const current = channels.some((c) => c.key === stored) ? stored : undefined;
  if (input.prompter && channels.length > 1) return input.prompter.channel(channels, current);
  return current;
}

/** setup: verifies the key against the service (GET /api/agent/me) and stores it, unless --dry-run. */
export async function runSetup(input: SetupInput, session: Session): Promise<SetupResult> {
  const remove = input.removeGateway ?? [];
  const gateway = mergeGateway(session.config.gateway, input.gateway, remove);
  checkGatewayInput(input.gateway, gateway, remove);
  const queryPort = input.queryPort ?? session.config.knowledge?.queryPort;
  checkPorts(input, gateway, queryPort);
  // a service URL that is to be asked for is checked as it is answered: a wrong stored one must not keep setup from fixing it
  const askEndpoint = input.key === undefined && input.prompter !== undefined && input.endpoint === undefined;
  let endpoint = askEndpoint ? session.endpoint : input.endpoint === undefined ? await sessionEndpoint(session) : await checkEndpoint(input.endpoint, '--endpoint');
  let key = input.key;
  if (key === undefined) {
    if (!input.prompter) {
      throw usageError(
        'missing argument <key>: pass the key as `brandwire setup <key>` (prompts need a terminal, and stdin is not one)',
        'create a key with `brandwire login`, or ask an Admin for one',
      );
    }
    if (askEndpoint) endpoint = await checkEndpoint(await input.prompter.endpoint(endpoint), 'the service URL');
    key = await input.prompter.key();
  }
  key = key.trim();
  if (key === '') throw usageError('the key is empty: pass it as `brandwire setup <key>`');

  const me = await (await clientFor(endpoint, key)).me().catch((error: unknown) => {
    // the key refused is the one just given, not a stored one
    if ((error as { code?: unknown }).code !== 'UNAUTHORIZED') throw error;
    throw new CliError('UNAUTHORIZED', (error as Error).message, EXIT.auth, { status: 401 }, `${shownEndpoint(endpoint)} does not know this key: check that it was copied whole, and that this is the service that issued it (--endpoint)`);
  });
  const channel = await chooseChannel(input, me, session.config.channel);
  const result: SetupResult = {
    ok: true,
    stored: !input.dryRun,
    endpoint,
    name: me.name,
    scope: me.scope,
    channel: channel ?? null,
    configPath: session.configPath,
    brands: me.brands,
  };
  if (gateway) result.gateway = withoutSecrets(gateway);
  if (queryPort !== undefined) result.knowledge = { queryPort };
  if (input.dryRun) return result;
  const config: StoredConfig = { ...session.config, endpoint, token: key, keyName: me.name, scope: me.scope };
  if (channel) config.channel = channel;
  else delete config.channel;
  if (gateway) config.gateway = gateway;
  else delete config.gateway;
  if (input.queryPort !== undefined) config.knowledge = { ...config.knowledge, queryPort: input.queryPort };
  writeConfig(session.configPath, config);
  return result;
}
