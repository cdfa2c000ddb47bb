import type { Brand, MeResponse } from '@brandwire/client';
import { CliError, usageError } from './cli-error';
import { EXIT } from './exit-codes';
import { type GatewaySettings, type Session, type StoredConfig, writeConfig } from './config-store';
import { withProvider } from './ai-model';
import { checkCommandsSecret } from './commands-secret';
import { checkEndpoint, clientFor } from './connect';

/** Asks a person, on a terminal only. */
export interface Prompter {
  endpoint(current: string): Promise<string>;
  key(): Promise<string>;
  channel(choices: Array<{ key: string; label: string }>, current: string | undefined): Promise<string | undefined>;
}

export interface SetupInput {
  key: string | undefined;
  endpoint: string | undefined;
  channel: string | undefined;
  dryRun: boolean;
  gateway: GatewaySettings;
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
}

function channelsOf(me: MeResponse): Array<{ key: string; label: string }> {
  return me.brands.flatMap((b) => b.channels.map((c) => ({ key: c.key, label: `${c.key} (${c.name}, brand ${b.id})` })));
}

/** Only the gateway settings given now replace the stored ones; secrets stay in the 0600 file. */
function mergeGateway(stored: GatewaySettings | undefined, given: GatewaySettings): GatewaySettings | undefined {
  const merged: GatewaySettings = { ...stored };
  for (const part of ['sink', 'crm', 'commands', 'ai'] as const) {
    const values = Object.fromEntries(Object.entries(given[part] ?? {}).filter(([, v]) => v !== undefined));
    // another AI provider does not take the stored one's key, url or model
    const base = part === 'ai' ? withProvider(stored?.ai, given.ai?.provider) : stored?.[part];
    if (Object.keys(values).length > 0) merged[part] = { ...base, ...values };
  }
  return Object.keys(merged).length > 0 ? merged : undefined;
}

/** The settings with every secret replaced by "set": what may be shown. */
function withoutSecrets({ sink, crm, commands, ai }: GatewaySettings): GatewaySettings {
  const hidden = <T extends object>(part: T, secret: keyof T): T => (part[secret] === undefined ? part : { ...part, [secret]: 'set' });
  // a Slack or Discord webhook url is itself the secret: its path is not shown
  const shownSink = sink && { ...hidden(sink, 'token'), ...(sink.url !== undefined && { url: originOnly(sink.url) }) };
  return {
    ...(shownSink && { sink: shownSink }),
    ...(crm && { crm: hidden(crm, 'token') }),
    ...(commands && { commands: hidden(commands, 'secret') }),
    ...(ai && { ai: hidden(ai, 'apiKey') }),
  };
}

function originOnly(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname === '/' && parsed.search === '' ? parsed.origin : `${parsed.origin}/…`;
  } catch {
    return 'set';
  }
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
  // a secret that cannot be the team chat's (given now, or stored for another type) is refused before anything is asked
  const gateway = mergeGateway(session.config.gateway, input.gateway);
  checkCommandsSecret(gateway);
  let endpoint = checkEndpoint(input.endpoint ?? session.endpoint);
  let key = input.key;
  if (key === undefined) {
    if (!input.prompter) {
      throw usageError(
        'missing argument <key>: pass the key as `brandwire setup <key>` (prompts need a terminal, and stdin is not one)',
        'create a key with `brandwire login`, or ask an Admin for one',
      );
    }
    if (input.endpoint === undefined) endpoint = checkEndpoint(await input.prompter.endpoint(endpoint));
    key = await input.prompter.key();
  }
  key = key.trim();
  if (key === '') throw usageError('the key is empty: pass it as `brandwire setup <key>`');

  const me = await (await clientFor(endpoint, key)).me().catch((error: unknown) => {
    // the key refused is the one just given, not a stored one
    if ((error as { code?: unknown }).code !== 'UNAUTHORIZED') throw error;
    throw new CliError('UNAUTHORIZED', (error as Error).message, EXIT.auth, { status: 401 }, `${endpoint} does not know this key: check that it was copied whole, and that this is the service that issued it (--endpoint)`);
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
  if (input.dryRun) return result;
  const config: StoredConfig = { ...session.config, endpoint, token: key, keyName: me.name, scope: me.scope };
  if (channel) config.channel = channel;
  else delete config.channel;
  if (gateway) config.gateway = gateway;
  writeConfig(session.configPath, config);
  return result;
}
