import { DatabaseUnreachableError } from './database-unreachable';
import { type StoreOptions, dialectOf } from './open-store';
import { postgresPool } from './postgres-pool';

export interface FirstStartLock {
  /** Lets the next instance in: ends the lock's session. */
  release(): Promise<void>;
}

/** Any number-like key shared by every instance, other than the migrations' lock. */
const FIRST_START_LOCK_KEY = 7_215_931_105;

/**
 * Instances starting together on one PostgreSQL database take turns at the work only a first start does (looking
 * whether it is one, and finishing it): a session advisory lock, held on a connection of its own until released or
 * until the process ends. The connection has no statement timeout: it waits as long as another instance's start
 * takes. SQLite needs none, as its data folder is one service's alone.
 */
export async function lockFirstStart(options: StoreOptions): Promise<FirstStartLock> {
  if (dialectOf(options) === 'sqlite') return { release: () => Promise.resolve() };
  const databaseUrl = options.databaseUrl as string;
  const pool = postgresPool(databaseUrl, 1, 'migrations');
  let connection: Awaited<ReturnType<typeof pool.connect>>;
  try {
    connection = await pool.connect();
  } catch (error) {
    await pool.end();
    throw new DatabaseUnreachableError(databaseUrl, error);
  }
  // ending the session frees its advisory locks, so closing the connection is the release
  const close = async (): Promise<void> => {
    connection.release();
    await pool.end();
  };
  try {
    await connection.query('select pg_advisory_lock($1)', [FIRST_START_LOCK_KEY]);
  } catch (error) {
    await close();
    throw error;
  }
  let released: Promise<void> | undefined;
  return { release: () => (released ??= close()) };
}
