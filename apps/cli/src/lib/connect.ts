import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrandwireClient } from '@brandwire/client';
import { authRequired, usageError } from './cli-error';
import type { Session } from './config-store';

/** brandwire-cli/<version> node/<version>: the tool's package.json is two folders up from src/lib and dist/lib. */
function userAgent(): string {
  const { version } = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
  return `brandwire-cli/${version} node/${process.version}`;
}

/** Checks an endpoint given on the command line or in the environment: an http(s) URL without a path. */
export function checkEndpoint(value: string, source = '--endpoint'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usageError(`${source} must be a URL such as http://127.0.0.1:8080, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usageError(`${source} must be an http or https URL, got "${value}"`);
  return value.replace(/\/+$/, '');
}

/** A client of the service; loads the client lib (and its HTTP library) only now. */
export async function clientFor(endpoint: string, token: string | undefined): Promise<BrandwireClient> {
  const { BrandwireClient } = await import('@brandwire/client');
  return new BrandwireClient({ endpoint: checkEndpoint(endpoint, 'the endpoint'), token, userAgent: userAgent() });
}

/** A client with the session's key; without a key this is the "authentication needed" failure (exit 4). */
export async function connect(session: Session): Promise<BrandwireClient> {
  if (!session.token) throw authRequired();
  return clientFor(session.endpoint, session.token);
}
