import { resolve } from 'node:path';
import { AI_REPLY_MODES } from '@brandwire/ai';
import { providerOf } from './ai-model';
import { CliError, authRequired } from './cli-error';
import { checkCommandsSecret } from './commands-secret';
import type { Session } from './config-store';
import { clientFor, sessionEndpoint } from './connect';
import { EXIT } from './exit-codes';

/** The variable the gateway daemon reads its relay settings from (apps/gateway/src/relay/relay-settings.ts). */
const RELAY_ENV = 'BRANDWIRE_GATEWAY_RELAY';
/** How long `gateway start` waits for the service to tell about a key from BRANDWIRE_TOKEN. */
const KEY_CHECK_MS = 5_000;

/**
 * The daemon's environment entry for its relays, with the key and endpoint in use: in the environment, not on the
 * command line, where any user of the machine could read the key. Empty when nothing is to be relayed. `note` tells
 * people what the start goes on without.
 */
export async function relayEnvironment(session: Session, note: (message: string) => void = () => undefined): Promise<Record<string, string>> {
  const { sink, crm, ai, commands } = session.config.gateway ?? {};
  const answering = ai?.reply !== undefined && ai.reply !== 'off' ? ai : undefined;
  const commanded = commands?.secret ? commands : undefined;
  if (!sink?.url && !crm?.url && !answering && !commanded) return {};
  if (!session.token) throw authRequired();
  const endpoint = await sessionEndpoint(session);
  const key = await keyInUse(session, session.token, note);
  if (answering) checkAnswering(answering, Boolean(sink?.url), key);
  if (commanded && !sink?.url) {
    throw new CliError('CONFIG', 'team-chat commands are set (gateway.commands) but no team-chat sink is', EXIT.error, { setting: 'gateway.commands' }, '`brandwire setup <key> --sink-type slack|teams|discord|webhook --sink-url <url>`, or remove the commands with `brandwire setup <key> --no-commands`');
  }
  if (commanded) checkCommandsSecret(session.config.gateway, 'stored');
  return {
    [RELAY_ENV]: JSON.stringify({
      endpoint,
      token: session.token,
      // where the gateway reads a new key (`brandwire login`) when the service refuses this one
      ...(session.tokenSource === 'config' && { configFile: resolve(session.configPath) }),
      ...(sink?.url && { sink }),
      ...(crm?.url && { crm }),
      ...(answering && { ai: answering }),
      ...(commanded && { commands: commanded }),
    }),
  };
}

interface KeyInUse {
  /** undefined when the service could not say */
  scope: string | undefined;
  /** how the key is named to people */
  name: string;
  /** where to put a better one */
  remedy: string;
}

/**
 * The scope of the key the daemon is to use: the stored key's was stored with it; a key from BRANDWIRE_TOKEN is
 * asked of the service, and refused when the service does not know it. A service that is down (or failing) now
 * does not keep the gateway from starting: it waits for the service, as it does with the stored key; one that does
 * not answer within KEY_CHECK_MS neither, and people are told.
 */
async function keyInUse(session: Session, token: string, note: (message: string) => void): Promise<KeyInUse> {
  if (token === session.config.token) return { scope: session.config.scope, name: 'the stored key', remedy: 'store a BrandWrite key with `brandwire setup <key>`' };
  const endpoint = await sessionEndpoint(session);
  const asked = Date.now();
  const client = await clientFor(endpoint, token, KEY_CHECK_MS);
  const service = (await import('@brandwire/client')).shownEndpoint(endpoint);
  const me = await client.me().catch((error: unknown) => {
    const { name, status } = error as { name?: unknown; status?: unknown };
    if (name === 'NetworkError' && Date.now() - asked >= KEY_CHECK_MS) {
      note(`${service} did not answer GET /api/agent/me within ${KEY_CHECK_MS / 1000} s: the key in BRANDWIRE_TOKEN was not checked; the gateway starts and waits for the service (\`brandwire env\` shows the endpoint in use)`);
    }
    if (status === 401) {
      throw new CliError('UNAUTHORIZED', (error as Error).message, EXIT.auth, { status }, `${service} does not know the key in BRANDWIRE_TOKEN: set it to a key of this service, or unset it to use the stored key`);
    }
    if (name === 'NetworkError' || (typeof status === 'number' && status >= 500)) return undefined;
    throw error;
  });
  return { scope: me?.scope, name: 'the key in BRANDWIRE_TOKEN', remedy: 'set BRANDWIRE_TOKEN to a BrandWrite key' };
}

/** AI replies that cannot work are refused at the start, not found out at the first customer message. */
function checkAnswering(ai: NonNullable<NonNullable<Session['config']['gateway']>['ai']>, teamChat: boolean, key: KeyInUse): void {
  const refuse = (message: string, hint: string): never => {
    throw new CliError('CONFIG', message, EXIT.error, { setting: 'gateway.ai' }, hint);
  };
  if (!(AI_REPLY_MODES as readonly unknown[]).includes(ai.reply)) refuse(`gateway.ai.reply must be one of ${AI_REPLY_MODES.join(', ')}, got "${ai.reply ?? ''}"`, '`brandwire setup <key> --ai-reply suggest`');
  if (!ai.provider) refuse('AI replies are on (gateway.ai.reply) but no AI provider is set', '`brandwire setup <key> --ai-provider openai|anthropic|ollama --ai-api-key <key>`');
  providerOf(ai, '');
  if (!ai.model) refuse('AI replies are on (gateway.ai.reply) but no model is selected', '`brandwire model list`, then `brandwire model set <id>`');
  if (ai.reply === 'suggest' && !teamChat) refuse('AI replies are to be suggested in the team chat, but no team-chat sink is set', '`brandwire setup <key> --sink-type slack --sink-url <url>`, or --ai-reply auto');
  if (ai.reply === 'auto' && key.scope === 'BrandRead') refuse(`AI replies are to be sent (gateway.ai.reply auto), but ${key.name} can only read (BrandRead)`, `${key.remedy}, or --ai-reply suggest`);
}
