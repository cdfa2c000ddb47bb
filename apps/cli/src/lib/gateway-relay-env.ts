import { authRequired } from './cli-error';
import type { Session } from './config-store';

/** The variable the gateway daemon reads its relay settings from (apps/gateway/src/relay/relay-settings.ts). */
const RELAY_ENV = 'BRANDWIRE_GATEWAY_RELAY';

/** What the gateway relays to, named as `start` reports them: the team-chat sink and the CRM `setup` stored. */
export function relayTargets(session: Session): string[] {
  const { sink, crm } = session.config.gateway ?? {};
  return [...(sink?.url ? [`team chat (${sink.type ?? 'webhook'})`] : []), ...(crm?.url ? ['CRM'] : [])];
}

/**
 * The daemon's environment entry for its relays, with the key and endpoint in use: in the environment, not on the
 * command line, where any user of the machine could read the key. Empty when nothing is to be relayed.
 */
export function relayEnvironment(session: Session): Record<string, string> {
  if (relayTargets(session).length === 0) return {};
  if (!session.token) throw authRequired();
  const { sink, crm } = session.config.gateway ?? {};
  return { [RELAY_ENV]: JSON.stringify({ endpoint: session.endpoint, token: session.token, ...(sink?.url && { sink }), ...(crm?.url && { crm }) }) };
}
