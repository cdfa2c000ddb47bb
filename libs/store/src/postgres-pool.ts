import { userInfo } from 'node:os';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import { Pool, type PoolConfig, defaults as pgDefaults, types as pgTypes } from 'pg';

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

/** Opening a connection (TCP, TLS, start-up, authentication), or waiting for a free one in a full pool. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** Idle connections are probed from then on, so one whose peer vanished (a dropped link) is noticed and replaced. */
const KEEPALIVE_DELAY_MS = 10_000;
/**
 * A request's statement that runs longer is cancelled by the server: its locks are freed and the connection stays
 * usable. Requests' statements take milliseconds; this only stops one stuck behind a lock or an overloaded server.
 */
export const STATEMENT_TIMEOUT_MS = 15_000;
/**
 * A request's query with no answer at all by then fails on this side: the server cannot say anything over a frozen
 * link or when it hangs, so its own statement timeout never arrives. Longer than that, which answers first.
 */
export const QUERY_TIMEOUT_MS = 20_000;

/**
 * `requests` carry the timeouts above. `migrations` carry none: a migration may rewrite a large table, and the
 * migration lock waits for as long as another instance's migrations take.
 */
export type PoolUse = 'requests' | 'migrations';

/** Sequences and epoch milliseconds stay far below 2^53, so 64-bit integers are read as numbers. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === PG_INT8 || oid === PG_NUMERIC ? (v: string) => Number(v) : pgTypes.getTypeParser(oid, format ?? 'text')) as typeof pgTypes.getTypeParser,
};

function configFor(connectionString: string, max: number, use: PoolUse): PoolConfig {
  const common: PoolConfig = { connectionString, max, types, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true, keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS };
  return use === 'requests' ? { ...common, statement_timeout: STATEMENT_TIMEOUT_MS, query_timeout: QUERY_TIMEOUT_MS } : common;
}

function logLost(error: Error): void {
  process.emitWarning(`a PostgreSQL connection was lost (a new one is opened when needed): ${error.message}`);
}

/**
 * The user a URL without one connects as, as psql does: the login name. pg reads it only from USER (or PGUSER),
 * which a service manager or a container often leaves unset, and then fails with "no PostgreSQL user name specified".
 */
function loginName(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined;
  }
}

/**
 * A pool that outlives its connections. pg emits `error` on a client whose connection breaks (the server ended
 * it, the network reset it), and pg-pool re-emits it on the pool for an idle client; an `error` event nobody
 * listens to ends the process. A checked-out client has no listener of pg-pool's, so every client gets one here:
 * the query under way fails, pg-pool drops the client, and later queries get new connections.
 */
export function postgresPool(connectionString: string, max: number, use: PoolUse): PostgresPool {
  pgDefaults.user ??= loginName();
  const pool = new Pool(configFor(connectionString, max, use));
  pool.on('connect', (client) => client.on('error', logLost));
  // already logged by the client's own listener
  pool.on('error', () => undefined);
  return closingTimedOut(pool);
}

/**
 * After a query read timeout the client still waits for that query's answer and would make every later query
 * wait behind it, so it is not given back to the pool but closed; its other queries meanwhile (the rollback of
 * its transaction) fail at once instead of waiting for the timeout again.
 */
function closingTimedOut(pool: Pool): PostgresPool {
  return {
    connect: async () => {
      const client = await pool.connect();
      let timedOut: Error | undefined;
      const query = async (text: string, parameters: readonly unknown[]) => {
        if (timedOut) throw timedOut;
        try {
          return await client.query(text, parameters as unknown[]);
        } catch (error) {
          if (error instanceof Error && error.message === 'Query read timeout') timedOut = error;
          throw error;
        }
      };
      // Kysely asks for the cursor form only of a dialect given a cursor class, and this one has none
      return { query: query as unknown as PostgresPoolClient['query'], release: () => client.release(timedOut) };
    },
    end: () => pool.end(),
  };
}
