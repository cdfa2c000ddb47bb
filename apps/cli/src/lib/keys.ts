import type { BrandwireClient, RevokedKeyResponse } from '@brandwire/client';
import { CliError, usageError } from './cli-error';
import { EXIT } from './exit-codes';
import { type Session, type StoredConfig, writeConfig } from './config-store';
import { sessionEndpoint } from './connect';
import { type RunningGateway, runningGateway } from './gateway-control';
import { noAnswer, unansweredChange } from './unanswered';

/** Makes a client of the service with a key: connect's clientFor. */
type ClientFor = (endpoint: string, token: string) => Promise<BrandwireClient>;

/** The stored key is the one the tool uses: none from BRANDWIRE_TOKEN, or the same one. */
export function usesStoredKey(session: Session): boolean {
  return session.config.token !== undefined && session.config.token === session.token;
}

/**
 * Removes the key from the config file, with what the service said of it (name, scope); the endpoint, the default
 * channel and the gateway and knowledge settings stay, and the file stays 0600. False when no key was stored.
 */
export function forgetStoredKey(session: Session): boolean {
  if (session.config.token === undefined) return false;
  const config: StoredConfig = { ...session.config };
  delete config.token;
  delete config.keyName;
  delete config.scope;
  writeConfig(session.configPath, config);
  return true;
}

/**
 * A running gateway that relays with a key: refused from now on, until it reads a new key (`login`) or is restarted.
 * One whose state file says it relays nothing holds no key; one found by its command line may.
 */
export interface GatewayWithKey {
  pid: number;
}

export function keyHolder(running: RunningGateway | undefined): GatewayWithKey | null {
  if (running === undefined) return null;
  const relays = running.relays === undefined || running.relays.length > 0 || running.commandsUrl !== undefined;
  return relays ? { pid: running.pid } : null;
}

function gatewayWithKey(): GatewayWithKey | null {
  return keyHolder(runningGateway());
}

export function gatewayKeepsKeyNote(gateway: GatewayWithKey): string {
  return `The gateway (pid ${gateway.pid}) relays nothing while the service refuses its key: \`brandwire login\` stores a new one, which a gateway started with the stored key reads by itself (one started with a key from BRANDWIRE_TOKEN needs \`brandwire gateway restart\`); \`brandwire gateway stop\` stops it.`;
}

export type KeyRevocation = RevokedKeyResponse & {
  /** the revoked key was the one stored in the config file (the key in use, or another), and is gone from it now */
  forgotten: boolean;
  /** a running gateway that may still use the forgotten key; null when none does or nothing was forgotten */
  gateway: GatewayWithKey | null;
};

/**
 * The stored key's id on the session's service, when the key in use is another one (from BRANDWIRE_TOKEN): it is
 * asked with the stored key itself, which lists at least itself, marked current. Null when no other key is stored,
 * or the service does not know it (then it cannot be the one revoked there).
 */
async function otherStoredKeyId(session: Session, clientFor: ClientFor): Promise<string | null> {
  const stored = session.config.token;
  if (stored === undefined || stored === session.token) return null;
  const { isApiError } = await import('@brandwire/client');
  try {
    const { keys } = await (await clientFor(await sessionEndpoint(session), stored)).keys();
    return keys.find((key) => key.current)?.id ?? null;
  } catch (error) {
    if (isApiError(error) && error.code === 'UNAUTHORIZED') return null;
    throw error;
  }
}

/**
 * `keys revoke`: the service's answer, and the stored key forgotten (as logout does) when it is the key revoked:
 * the key in use revoking itself, or another key stored beside a key from BRANDWIRE_TOKEN. The stored key's id is
 * asked before revoking, since the service refuses it afterwards.
 */
export async function revokeKey(client: BrandwireClient, session: Session, clientFor: ClientFor, id: string): Promise<KeyRevocation> {
  const storedId = await otherStoredKeyId(session, clientFor);
  const reply = await client.revokeKey(id);
  const stored = reply.self ? usesStoredKey(session) : reply.id === storedId;
  const forgotten = stored && forgetStoredKey(session);
  return { ...reply, forgotten, gateway: forgotten ? gatewayWithKey() : null };
}

/**
 * What the service made of logout: it revoked the key now; it refused the key already (401: revoked before, or not
 * one of its keys); it could not be reached; the revoke went out whole and no answer came (it may be revoked); it
 * answered with another failure; or it was not asked (no key stored).
 */
export type LogoutService = 'revoked' | 'already-refused' | 'unreachable' | 'unanswered' | 'failed' | 'not-asked';

export interface LogoutResult {
  ok: true;
  /** the service revoked the key now: requests with it are refused from now on */
  revoked: boolean;
  service: LogoutService;
  /** the key was removed from the config file now */
  forgotten: boolean;
  /** the key's id and name, as far as known */
  id: string | null;
  name: string | null;
  endpoint: string;
  configPath: string;
  /** why the service did not revoke it: its error code and message, or the network failure */
  reason?: { code: string; message: string };
  /** a running gateway that may still use the key; null when none does or nothing was forgotten */
  gateway: GatewayWithKey | null;
}

type Revocation = Pick<LogoutResult, 'revoked' | 'service' | 'id' | 'name' | 'reason'>;

/** Revokes the key on the service: its own id is the entry of `GET /api/agent/keys` marked current. */
async function revokeOwnKey(connect: () => Promise<BrandwireClient>, storedName: string | null): Promise<Revocation> {
  const { isApiError, isNetworkError } = await import('@brandwire/client');
  try {
    const client = await connect();
    const current = (await client.keys()).keys.find((key) => key.current);
    if (current === undefined) {
      return { revoked: false, service: 'failed', id: null, name: storedName, reason: { code: 'BAD_RESPONSE', message: 'the service listed no key as the one in use' } };
    }
    const reply = await client.revokeKey(current.id);
    return { revoked: true, service: 'revoked', id: reply.id, name: reply.name };
  } catch (error) {
    if (isApiError(error) && error.code === 'UNAUTHORIZED') return { revoked: false, service: 'already-refused', id: null, name: storedName, reason: { code: error.code, message: error.message } };
    if (isNetworkError(error)) {
      const change = unansweredChange(error);
      if (change !== undefined) return { revoked: false, service: 'unanswered', id: null, name: storedName, reason: { code: error.code, message: noAnswer(change) } };
      return { revoked: false, service: 'unreachable', id: null, name: storedName, reason: { code: error.code, message: error.message } };
    }
    if (isApiError(error)) return { revoked: false, service: 'failed', id: null, name: storedName, reason: { code: error.code, message: error.message } };
    // an endpoint that is no URL: the service could not be asked
    if (error instanceof CliError) return { revoked: false, service: 'failed', id: null, name: storedName, reason: { code: error.code, message: error.message } };
    throw error;
  }
}

/** The service was not told to revoke the key, or did not say whether it did. */
export function isUntold(service: LogoutService): boolean {
  return service === 'unreachable' || service === 'unanswered' || service === 'failed';
}

/**
 * logout: revokes the stored key on the service, then forgets it. When the service refused the key already it is
 * forgotten too (it works nowhere). When the service could not be told (out of reach, or another failure), the key
 * stays stored and logout fails, since a key below Admin could never revoke it later without it: `force` forgets it
 * anyway. A key from BRANDWIRE_TOKEN other than the stored one is a usage error: logout changes neither the
 * environment nor that key.
 */
export async function runLogout(
  session: Session,
  clientFor: ClientFor,
  options: { force: boolean },
): Promise<LogoutResult> {
  const stored = session.config.token;
  if (session.tokenSource === 'env' && session.token !== stored) {
    throw usageError(
      `the key in use comes from BRANDWIRE_TOKEN, which logout leaves alone (${stored === undefined ? 'no key is stored' : 'another key is stored'} in ${session.configPath})`,
      `to log out the stored key, unset BRANDWIRE_TOKEN first; to revoke the BRANDWIRE_TOKEN key for good, \`brandwire keys list\` shows its id (marked *), then \`brandwire keys revoke <id>\``,
    );
  }
  const base = { ok: true as const, endpoint: session.endpoint, configPath: session.configPath };
  if (stored === undefined) return { ...base, revoked: false, service: 'not-asked', forgotten: false, id: null, name: null, gateway: null };
  const revocation = await revokeOwnKey(async () => clientFor(await sessionEndpoint(session), stored), session.config.keyName ?? null);
  if (isUntold(revocation.service) && !options.force) {
    const name = revocation.name === null ? 'the key' : `the key "${revocation.name}"`;
    const why = revocation.reason?.message ?? 'no answer';
    const unanswered = revocation.service === 'unanswered';
    throw new CliError(
      revocation.reason?.code ?? 'NETWORK',
      unanswered
        ? `whether ${name} is revoked is not known: the revoke went out and ${why}; it stays stored in ${session.configPath}`
        : `${name} is not revoked: the service could not be told (${why}); it stays stored in ${session.configPath}`,
      EXIT.error,
      { service: revocation.service, endpoint: session.endpoint, configPath: session.configPath },
      unanswered
        ? 'run logout again: the service then answers whether it revoked the key (one it refuses already is removed), or `brandwire logout --force` to remove it from this machine anyway (if it is not revoked, it keeps working until it is)'
        : 'run logout again once the service answers, or `brandwire logout --force` to remove it from this machine anyway (it keeps working until it is revoked)',
    );
  }
  return { ...base, ...revocation, forgotten: forgetStoredKey(session), gateway: gatewayWithKey() };
}
