import { authRequired } from './cli-error';
import type { Session } from './config-store';

/** The variable the gateway daemon reads its relay settings from (apps/gateway/src/relay/relay-settings.ts). */
const RELAY_ENV = 'BRANDWIRE_GATEWAY_RELAY';

/**
 * The daemon's environment entry for its relays, with the key and endpoint in use: in the environment, not on the
 * command line, where any user of the machine could read the key. Empty when nothing is to be relayed.
 */
export function relayEnvironment(session: Session): Record<string, string> {
  const { sink, crm } = session.config.gateway ?? {};
  if (!sink?.url && !crm?.url) return {};
  if (!session.token) throw authRequired();
  return { [RELAY_ENV]: JSON.stringify({ endpoint: session.endpoint, token: session.token, ...(sink?.url && { sink }), ...(crm?.url && { crm }) }) };
}
