import { readFileSync, statSync } from 'node:fs';

/** The key the CLI's config file holds (`brandwire login`, `setup`), with the endpoint it is for. */
export interface StoredKey {
  token: string;
  /** undefined when the file names none (the CLI's default endpoint) */
  endpoint: string | undefined;
  /** when the file was last written (ms) */
  changedAt: number;
}

/** The config file's key; undefined when it holds none, or is missing or being written by something other than the CLI (which renames a whole file). */
export function readStoredKey(configFile: string): StoredKey | undefined {
  try {
    const changedAt = statSync(configFile).mtimeMs;
    const { token, endpoint } = JSON.parse(readFileSync(configFile, 'utf8')) as { token?: unknown; endpoint?: unknown };
    if (typeof token !== 'string' || token === '') return undefined;
    return { token, endpoint: typeof endpoint === 'string' && endpoint.trim() !== '' ? endpoint : undefined, changedAt };
  } catch {
    return undefined;
  }
}

/** When the config file was last written (ms); undefined when it cannot be read. */
export function changedAtOf(configFile: string): number | undefined {
  try {
    return statSync(configFile).mtimeMs;
  } catch {
    return undefined;
  }
}

/** An endpoint as compared with another: scheme and host in small letters, no default port, no trailing slash. */
export function normalisedEndpoint(endpoint: string): string {
  try {
    const url = new URL(endpoint.trim());
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return endpoint.trim().replace(/\/+$/, '');
  }
}
