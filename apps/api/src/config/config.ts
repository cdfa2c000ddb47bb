import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

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

function positiveInt(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new ConfigError(`${name} must be a whole number above 0, got "${raw}"`);
  return value;
}

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
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(`${name} must start with ${protocols.join(' or ')}//`);
  return raw.replace(/\/+$/, '');
}

function timeZone(env: Env): string {
  const zone = env['BRANDWIRE_TIMEZONE'] || 'Asia/Seoul';
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
  } catch {
    throw new ConfigError(`BRANDWIRE_TIMEZONE must be an IANA time zone such as Asia/Seoul, got "${zone}"`);
  }
  return zone;
}

export function loadConfig(env: Env = process.env): Config {
  const upstreamUrl = url(env, 'UPSTREAM_URL', ['http:', 'https:']);
  return {
    port: port(env, 'PORT', 8080),
    host: env['HOST'] || '127.0.0.1',
    dataDir: resolve(env['BRANDWIRE_DATA_DIR'] || './.brandwire'),
    seedFile: env['BRANDWIRE_SEED'] ? resolve(env['BRANDWIRE_SEED']) : undefined,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    upstreamUrl,
    // The in-process sandbox gets a fresh partner key each start; a separate messenger needs the configured one.
    upstreamPartnerKey: env['UPSTREAM_PARTNER_KEY'] || (upstreamUrl ? 'sandbox-partner-key' : randomBytes(24).toString('base64url')),
    publicUrl: url(env, 'BRANDWIRE_PUBLIC_URL', ['http:', 'https:']),
    attachmentHost: env['ATTACHMENT_HOST'] || 'talk-cdn.sandbox.invalid',
    timeZone: timeZone(env),
    logLevel: env['LOG_LEVEL'] || 'warn',
    jsonBodyLimit: env['JSON_BODY_LIMIT'] || '1mb',
    deliveryLeaseMs: positiveInt(env, 'DELIVERY_LEASE_MS', 30_000),
    roomCacheBytes: wholeNumber(env, 'ROOM_CACHE_MB', 32) * 1024 * 1024,
    sqliteThread: flag(env, 'SQLITE_THREAD', true),
  };
}
