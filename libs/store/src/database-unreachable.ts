const UNREACHABLE = 'DATABASE_UNREACHABLE';

/** The PostgreSQL database named by the URL could not be connected to (down, refused, no such database or user). */
export class DatabaseUnreachableError extends Error {
  override readonly name = 'DatabaseUnreachableError';
  readonly code = UNREACHABLE;

  constructor(databaseUrl: string, cause: unknown) {
    super(`cannot connect to the PostgreSQL database of DATABASE_URL (${withoutPassword(databaseUrl)}): ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/**
 * A URL as it may be shown: a password, in its user part or as a `password` or `sslpassword` parameter (both of
 * which PostgreSQL takes), replaced by ***. Works on text that is not a valid URL too, as start-up echoes that.
 */
export function withoutPassword(url: string): string {
  // to the last @: a password given raw may hold @ or /, and masking too much is no harm
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/:@]*:).*@/i, '$1***@').replace(/([?&](?:ssl)?password=)[^&#]*/gi, '$1***');
}

/** The socket failures of a connection to a database host that is down, unknown or cut off. */
const SOCKET_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that ends or refuses sessions (administrator command, crash, start-up or shut-down), has no
 * connection left, or cancelled a statement that ran past statement_timeout; class 08 is "connection exception".
 */
const SERVER_CODES: ReadonlySet<string> = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/** SQLite's codes for a database file another writer held past the busy timeout. */
const SQLITE_BUSY_CODES: ReadonlySet<string> = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_TIMEOUT', 'SQLITE_LOCKED']);

/** What pg and pg-pool (8.x / 3.x) throw, without a code, for a connection that was cut, timed out or is broken. */
const DRIVER_MESSAGES: readonly string[] = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
];

/**
 * The database could not be reached, or did not answer in time (a PostgreSQL server that is down or slow, a SQLite
 * file another writer holds): at start-up (DatabaseUnreachableError), or for a query later on. Such a failure is the database's, not the request's: trying again later may succeed.
 */
export function isDatabaseUnreachable(error: unknown): error is Error {
  // not `instanceof Error`: a socket's errors come from Node's own realm, which is not a test's
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    return code === UNREACHABLE || SOCKET_CODES.has(code) || SERVER_CODES.has(code) || SQLITE_BUSY_CODES.has(code) || code.startsWith('08');
  }
  return typeof message === 'string' && DRIVER_MESSAGES.some((prefix) => message.startsWith(prefix));
}
