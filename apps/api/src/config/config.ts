import { randomBytes } from 'node:crypto';
import { constants, accessSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ianaTimeZone } from '@brandwire/domain';
import { withoutPassword } from '@brandwire/store';
import ipaddr from 'ipaddr.js';

/** Everything the service reads from its environment, validated once at start-up. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  seedFile: string | undefined;
  databaseUrl: string | undefined;
  /** Base URL of the messenger's partner API; undefined starts the sandbox messenger in this process. */
  upstreamUrl: string | undefined;
  upstreamPartnerKey: string;
  /** Base URL at which the messenger reaches this service's callbacks; defaults to the listening address. */
  publicUrl: string | undefined;
  attachmentHost: string;
  timeZone: string;
  logLevel: string;
  jsonBodyLimit: string;
  /** How long an instance holds a channel's webhook deliveries before another may take them over. */
  deliveryLeaseMs: number;
  /** Bytes of messages pages kept for rooms read again (embedded SQLite only); 0 keeps none. */
  roomCacheBytes: number;
  /** Whether the embedded SQLite file is worked on a thread of its own (off: on the event loop's thread). */
  sqliteThread: boolean;
  /** The proxies whose X-Forwarded-For and -Proto are believed (Express's `trust proxy`): how many, or their addresses. */
  trustProxy: number | string[] | undefined;
  /** Requests one key may make a minute on this instance; 0 sets no limit. */
  rateLimitPerKey: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function port(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new ConfigError(`${name} must be a port number from 0 to 65535, got "${raw}"`);
  return value;
}

function positiveInt(env: Env, name: string, fallback: number, least = 1, why = ''): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < least) throw new ConfigError(`${name} must be a whole number from ${least} up${why}, got "${raw}"`);
  return value;
}

/** A delivery lease is renewed every third of it, at least 100 ms apart: a shorter one runs out between renewals. */
const LEAST_DELIVERY_LEASE_MS = 1_000;

function wholeNumber(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new ConfigError(`${name} must be a whole number from 0 up, got "${raw}"`);
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === '1') return true;
  if (raw === '0') return false;
  throw new ConfigError(`${name} must be 1 (on) or 0 (off), got "${raw}"`);
}

function url(env: Env, name: string, protocols: readonly string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${withoutPassword(raw)}"`);
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(`${name} must start with ${protocols.join(' or ')}//`);
  return raw.replace(/\/+$/, '');
}

/** A URL the service appends paths to (`/upstream/...`, `/pair`, the messenger's API): a query or fragment would end up in the middle. */
function baseUrl(env: Env, name: string): string | undefined {
  const value = url(env, name, ['http:', 'https:']);
  // a lone `?` or `#` leaves URL's search and hash empty, and breaks the joined paths all the same
  if (value !== undefined && /[?#]/.test(value)) {
    throw new ConfigError(`${name} must be a base URL, without a query (?) or fragment (#), got "${withoutPassword(value)}"`);
  }
  return value;
}

/** Sent as the X-Partner-Key header: visible ASCII only (a header takes no other character as it is, and trims spaces at its ends). */
function partnerKey(env: Env, upstreamUrl: string | undefined): string {
  const raw = env['UPSTREAM_PARTNER_KEY'];
  // The in-process sandbox gets a fresh partner key each start; a separate messenger needs the configured one.
  if (raw === undefined || raw === '') return upstreamUrl ? 'sandbox-partner-key' : randomBytes(24).toString('base64url');
  if (!/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(raw)) {
    throw new ConfigError('UPSTREAM_PARTNER_KEY must be visible ASCII characters (! to ~, spaces only between them), as the X-Partner-Key header carries it');
  }
  return raw;
}

function timeZone(env: Env): string {
  const given = env['BRANDWIRE_TIMEZONE'] || 'Asia/Seoul';
  const zone = ianaTimeZone(given);
  if (zone === undefined) throw new ConfigError(`BRANDWIRE_TIMEZONE must be an IANA time zone such as Asia/Seoul, got "${given}"`);
  return zone;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function logLevel(env: Env): string {
  const level = env['LOG_LEVEL'] || 'warn';
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${level}"`);
  return level;
}

const BYTES_PER_UNIT: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/**
 * A size as the JSON body parser reads it (the `bytes` package): bytes, or a number with kb, mb or gb. It floors
 * the bytes, so a fraction of a byte, or a size under one byte, would quietly become another limit or none.
 */
function byteSize(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const size = raw.trim();
  const match = /^(\d+(?:\.\d+)?) *(b|kb|mb|gb)?$/i.exec(size);
  if (!match) throw new ConfigError(`${name} must be a size such as 1mb, 512kb or 100000 (bytes), got "${raw}"`);
  const count = Number(match[1]);
  const unit = (match[2] ?? 'b').toLowerCase();
  if (unit === 'b' && !Number.isInteger(count)) throw new ConfigError(`${name} must be a whole number of bytes, got "${raw}"`);
  const bytes = Math.floor(count * (BYTES_PER_UNIT[unit] ?? 1));
  if (bytes < 1) throw new ConfigError(`${name} must be at least 1 byte, got "${raw}"${count > 0 ? ` (${bytes} bytes)` : ''}`);
  return size;
}

function hostName(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i.test(raw)) {
    throw new ConfigError(`${name} must be a host name such as talk-cdn.example.com (no scheme, no path), got "${raw}"`);
  }
  return raw.toLowerCase();
}

function readableFile(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const path = resolve(raw);
  try {
    accessSync(path, constants.R_OK);
    if (!statSync(path).isFile()) throw new ConfigError(`${name} must name a file, and ${path} is a folder`);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`${name} names a file that cannot be read: ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return path;
}

/** Express's names for address ranges a proxy may sit in. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: the number of proxies in front of the service (1 for one load balancer), or their addresses and
 * ranges. Unset, the client is the connection's address, and a client's own X-Forwarded-For is never believed.
 */
function trustProxy(env: Env): number | string[] | undefined {
  const raw = env['TRUST_PROXY']?.trim();
  if (raw === undefined || raw === '' || raw === '0') return undefined;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim());
  const known = (entry: string): boolean => PROXY_RANGES.includes(entry) || isAddress(entry) || isRange(entry);
  if (!entries.every(known)) {
    throw new ConfigError(
      `TRUST_PROXY must be the number of proxies in front of the service (such as 1), or their addresses and ranges separated by commas (such as 10.0.0.0/8, loopback, uniquelocal), got "${raw}"`,
    );
  }
  return entries;
}

/** An address as people write it: ipaddr.js alone also takes the old forms such as `1.5` (1.0.0.5). */
function isAddress(entry: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(entry) || ipaddr.IPv6.isValid(entry);
}

function isRange(entry: string): boolean {
  const [address = '', bits] = entry.split('/');
  if (bits === undefined || !isAddress(address)) return false;
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

export function loadConfig(env: Env = process.env): Config {
  const upstreamUrl = baseUrl(env, 'UPSTREAM_URL');
  return {
    port: port(env, 'PORT', 8080),
    host: env['HOST'] || '127.0.0.1',
    dataDir: resolve(env['BRANDWIRE_DATA_DIR'] || './.brandwire'),
    seedFile: readableFile(env, 'BRANDWIRE_SEED'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    upstreamUrl,
    upstreamPartnerKey: partnerKey(env, upstreamUrl),
    publicUrl: baseUrl(env, 'BRANDWIRE_PUBLIC_URL'),
    attachmentHost: hostName(env, 'ATTACHMENT_HOST', 'talk-cdn.sandbox.invalid'),
    timeZone: timeZone(env),
    logLevel: logLevel(env),
    jsonBodyLimit: byteSize(env, 'JSON_BODY_LIMIT', '1mb'),
    deliveryLeaseMs: positiveInt(env, 'DELIVERY_LEASE_MS', 30_000, LEAST_DELIVERY_LEASE_MS, ' (a shorter lease runs out between its renewals)'),
    roomCacheBytes: wholeNumber(env, 'ROOM_CACHE_MB', 32) * 1024 * 1024,
    sqliteThread: flag(env, 'SQLITE_THREAD', true),
    trustProxy: trustProxy(env),
    rateLimitPerKey: wholeNumber(env, 'RATE_LIMIT_PER_KEY', 6_000),
  };
}
