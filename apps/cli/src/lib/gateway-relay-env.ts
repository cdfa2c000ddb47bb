import { AI_REPLY_MODES } from '@brandwire/ai';
import { providerOf } from './ai-model';
import { CliError, authRequired } from './cli-error';
import { checkCommandsSecret } from './commands-secret';
import type { Session } from './config-store';
import { EXIT } from './exit-codes';

/** The variable the gateway daemon reads its relay settings from (apps/gateway/src/relay/relay-settings.ts). */
const RELAY_ENV = 'BRANDWIRE_GATEWAY_RELAY';

/**
 * The daemon's environment entry for its relays, with the key and endpoint in use: in the environment, not on the
 * command line, where any user of the machine could read the key. Empty when nothing is to be relayed.
 */
export function relayEnvironment(session: Session): Record<string, string> {
  const { sink, crm, ai, commands } = session.config.gateway ?? {};
  const answering = ai?.reply !== undefined && ai.reply !== 'off' ? ai : undefined;
  const commanded = commands?.secret ? commands : undefined;
  if (!sink?.url && !crm?.url && !answering && !commanded) return {};
  if (!session.token) throw authRequired();
  // the stored scope is the stored key's; a key from BRANDWIRE_TOKEN is found out by the service
  if (answering) checkAnswering(answering, Boolean(sink?.url), session.tokenSource === 'config' ? session.config.scope : undefined);
  if (commanded && !sink?.url) {
    throw new CliError('CONFIG', 'team-chat commands are set (gateway.commands) but no team-chat sink is', EXIT.error, { setting: 'gateway.commands' }, '`brandwire setup <key> --sink-type slack|teams|discord|webhook --sink-url <url>`');
  }
  if (commanded) checkCommandsSecret(session.config.gateway);
  return {
    [RELAY_ENV]: JSON.stringify({
      endpoint: session.endpoint,
      token: session.token,
      ...(sink?.url && { sink }),
      ...(crm?.url && { crm }),
      ...(answering && { ai: answering }),
      ...(commanded && { commands: commanded }),
    }),
  };
}

/** AI replies that cannot work are refused at the start, not found out at the first customer message. */
function checkAnswering(ai: NonNullable<NonNullable<Session['config']['gateway']>['ai']>, teamChat: boolean, scope: string | undefined): void {
  const refuse = (message: string, hint: string): never => {
    throw new CliError('CONFIG', message, EXIT.error, { setting: 'gateway.ai' }, hint);
  };
  if (!(AI_REPLY_MODES as readonly unknown[]).includes(ai.reply)) refuse(`gateway.ai.reply must be one of ${AI_REPLY_MODES.join(', ')}, got "${ai.reply ?? ''}"`, '`brandwire setup <key> --ai-reply suggest`');
  if (!ai.provider) refuse('AI replies are on (gateway.ai.reply) but no AI provider is set', '`brandwire setup <key> --ai-provider openai|anthropic|ollama --ai-api-key <key>`');
  providerOf(ai, '');
  if (!ai.model) refuse('AI replies are on (gateway.ai.reply) but no model is selected', '`brandwire model list`, then `brandwire model set <id>`');
  if (ai.reply === 'suggest' && !teamChat) refuse('AI replies are to be suggested in the team chat, but no team-chat sink is set', '`brandwire setup <key> --sink-type slack --sink-url <url>`, or --ai-reply auto');
  if (ai.reply === 'auto' && scope === 'BrandRead') refuse('AI replies are to be sent (gateway.ai.reply auto), but the stored key can only read (BrandRead)', 'store a BrandWrite key with `brandwire setup <key>`, or --ai-reply suggest');
}
