import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrandwireClient } from '@brandwire/client';
import { CliError, authRequired, usageError } from './cli-error';
import type { Session } from './config-store';
import { EXIT } from './exit-codes';

/** brandwire-cli/<version> node/<version>: the tool's package.json is two folders up from src/lib and dist/lib. */
function userAgent(): string {
  const { version } = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
  return `brandwire-cli/${version} node/${process.version}`;
}

/**
 * Checks a URL given as `source`: http or https, else USAGE naming `source`. A value refused is shown without a user
 * name or password (nor, when it has a host, its query or fragment); the client lib that shows it is loaded only then.
 */
export async function checkHttpUrl(value: string, source: string): Promise<URL> {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url?.protocol === 'http:' || url?.protocol === 'https:') return url;
  const shown = await shownEndpointValue(value);
  throw usageError(url === undefined ? `${source} must be a URL such as http://127.0.0.1:8080, got "${shown}"` : `${source} must be an http or https URL, got "${shown}"`);
}

/**
 * An endpoint value as messages show it: without a user name or password, nor, when it has a host, its query or
 * fragment. The client lib that shows it is loaded only then.
 */
export async function shownEndpointValue(value: string): Promise<string> {
  const { shownEndpoint, withoutUserinfo } = await import('@brandwire/client');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return withoutUserinfo(value);
  }
  // a URL without a host ("user:pass@host" reads as the scheme "user:") is shown by its scheme alone when it may hold a password
  return url.host !== '' ? shownEndpoint(value) : value.includes('@') ? `${url.protocol}…` : value;
}

/**
 * Checks an endpoint given on the command line or in the environment: an http(s) URL without a user name or
 * password, which the HTTP library would send as Basic auth in place of the key's Authorization header.
 */
export async function checkEndpoint(value: string, source = '--endpoint'): Promise<string> {
  const url = await checkHttpUrl(value, source);
  if (url.username !== '' || url.password !== '') {
    const { shownEndpoint } = await import('@brandwire/client');
    throw usageError(`${source} must not carry a user name or password (the key goes in the Authorization header): give ${shownEndpoint(value)}`);
  }
  return value.replace(/\/+$/, '');
}

/** Where the session's endpoint came from, as its messages name it, and how to put a better one there. */
function endpointOrigin(session: Pick<Session, 'endpointSource' | 'configPath'>): { source: string; hint: string } {
  switch (session.endpointSource) {
    case 'env':
      return { source: 'BRANDWIRE_ENDPOINT', hint: 'set BRANDWIRE_ENDPOINT to the service URL, or unset it to use the stored endpoint' };
    case 'config':
      return { source: `the endpoint in ${session.configPath}`, hint: 'pass --endpoint <url> (`setup` and `login` store it), or correct `endpoint` in that file' };
    case 'default':
      return { source: 'the default endpoint', hint: 'pass --endpoint <url>' };
    default: {
      const unreachable: never = session.endpointSource;
      throw new Error(`unknown endpoint source ${String(unreachable)}`);
    }
  }
}

/**
 * The session's endpoint, checked: one from BRANDWIRE_ENDPOINT or the config file that checkEndpoint refuses is a
 * CONFIG failure (exit 1: nothing on the command line was wrong), naming where it came from.
 */
export async function sessionEndpoint(session: Pick<Session, 'endpoint' | 'endpointSource' | 'configPath'>): Promise<string> {
  const { source, hint } = endpointOrigin(session);
  try {
    return await checkEndpoint(session.endpoint, source);
  } catch (error) {
    if (error instanceof CliError) throw new CliError('CONFIG', error.message, EXIT.error, {}, hint);
    throw error;
  }
}

const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * A Node timer holds at most 2^31-1 ms (a longer one fires at once) and uploads wait four times as long, so this is
 * the longest wait that every request can keep.
 */
const LONGEST_TIMEOUT_MS = Math.floor((2 ** 31 - 1) / 4);

/**
 * BRANDWIRE_TIMEOUT_MS: how long to wait for each answer of the service (uploads four times as long); a value that
 * is no whole number from 1 to LONGEST_TIMEOUT_MS is CONFIG.
 */
export function requestTimeoutMs(env: Record<string, string | undefined> = process.env): number {
  const value = env['BRANDWIRE_TIMEOUT_MS'];
  if (value === undefined || value === '') return DEFAULT_TIMEOUT_MS;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > LONGEST_TIMEOUT_MS) {
    throw new CliError(
      'CONFIG',
      `BRANDWIRE_TIMEOUT_MS must be a whole number of milliseconds from 1 to ${LONGEST_TIMEOUT_MS}, got "${value}"`,
      EXIT.error,
      {},
      `leave it unset to wait ${DEFAULT_TIMEOUT_MS} ms`,
    );
  }
  return Number(value);
}

/**
 * A client of the service; loads the client lib (and its HTTP library) only now. `timeoutMs`: per request
 * (default BRANDWIRE_TIMEOUT_MS, else 30 s).
 */
export async function clientFor(endpoint: string, token: string | undefined, timeoutMs = requestTimeoutMs()): Promise<BrandwireClient> {
  const { BrandwireClient } = await import('@brandwire/client');
  return new BrandwireClient({ endpoint: await checkEndpoint(endpoint, 'the endpoint'), token, userAgent: userAgent(), timeoutMs });
}

/** A client with the session's key; without a key this is the "authentication needed" failure (exit 4). */
export async function connect(session: Session): Promise<BrandwireClient> {
  if (!session.token) throw authRequired();
  return clientFor(await sessionEndpoint(session), session.token);
}
