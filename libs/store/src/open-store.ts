import { chmodSync, mkdirSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { DatabaseUnreachableError } from './database-unreachable';
import { migrationProvider } from './migrations';
import { type PoolUse, postgresPool } from './postgres-pool';
import type { Database } from './schema';
import { sqliteDriver } from './sqlite-driver';
import { withStatementCache } from './statement-cache';
import { lockDataDir } from './data-dir-lock';

export type Dialect = 'sqlite' | 'postgres';

export interface StoreOptions {
  /** Folder of the embedded SQLite file (created when missing); ignored with a PostgreSQL URL. */
  dataDir: string;
  /** `postgres://…` selects PostgreSQL; absent selects the embedded SQLite file. */
  databaseUrl?: string;
  /** PostgreSQL pool size per instance. */
  poolSize?: number;
}

export const SQLITE_FILE_NAME = 'brandwire.db';

/** The dialect the options select. */
export function dialectOf(options: StoreOptions): Dialect {
  return options.databaseUrl !== undefined && /^postgres(ql)?:\/\//.test(options.databaseUrl) ? 'postgres' : 'sqlite';
}

export { DatabaseUnreachableError, isDatabaseUnreachable, withoutPassword } from './database-unreachable';

/** Opens the database of the options' dialect and brings its schema up to date. */
export async function openDatabase(options: StoreOptions): Promise<{ db: Kysely<Database>; dialect: Dialect }> {
  if (dialectOf(options) === 'postgres') {
    const databaseUrl = options.databaseUrl as string;
    await migrateAlone(databaseUrl);
    return { db: postgres(databaseUrl, options.poolSize ?? 20, 'requests'), dialect: 'postgres' };
  }
  const db = sqlite(options.dataDir);
  try {
    await migrate(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, dialect: 'sqlite' };
}

function sqlite(dataDir: string): Kysely<Database> {
  // the database holds conversations and the webhook signing secrets: a new data folder is the owner's alone
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lock = lockDataDir(dataDir);
  let file: BetterSqlite3.Database;
  try {
    file = openSqliteFile(join(dataDir, SQLITE_FILE_NAME));
  } catch (error) {
    lock.release();
    throw error;
  }
  const database = withStatementCache(file);
  return new Kysely<Database>({
    dialect: new SqliteDialect({
      database: {
        ...database,
        close: () => {
          try {
            database.close();
          } finally {
            lock.release();
          }
        },
      },
    }),
  });
}

function openSqliteFile(path: string): BetterSqlite3.Database {
  const file = new (sqliteDriver())(path);
  file.pragma('journal_mode = WAL');
  // A connection that reopens a WAL database defaults to NORMAL; FULL keeps every answered write through a power loss.
  file.pragma('synchronous = FULL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  // Group commit runs each unit of work in a savepoint, and SQLite keeps what a savepoint may have to undo in a
  // statement journal: a temporary file by default, created, written page by page and deleted for every commit
  // (about 80 % of the write calls of a send). It only ever serves a rollback to a savepoint, never recovery.
  file.pragma('temp_store = MEMORY');
  ownerOnly(path, `${path}-wal`, `${path}-shm`);
  return file;
}

/** The database files are the owner's alone also in a data folder others may read (a folder given, not made here). */
function ownerOnly(...paths: string[]): void {
  for (const path of paths) {
    try {
      chmodSync(path, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

function postgres(connectionString: string, max: number, use: PoolUse): Kysely<Database> {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: postgresPool(connectionString, max, use) }) });
}

/** Any number-like key shared by every instance: instances starting together migrate one after the other. */
export const MIGRATION_LOCK_KEY = 7_215_931_104;

/**
 * Several instances may start at once on one PostgreSQL: a session advisory lock makes them migrate one at a
 * time (the migrator's own lock table cannot protect its own creation). Migrations run on a connection of their
 * own, without the requests' timeouts.
 */
async function migrateAlone(databaseUrl: string): Promise<void> {
  const db = postgres(databaseUrl, 1, 'migrations');
  let connected = false;
  try {
    await db.connection().execute(async (connection) => {
      connected = true;
      await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(connection);
      try {
        // The migrator looks for its tables in every schema unless told which; name the one in use.
        const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(connection);
        await migrate(connection, rows[0]?.schema);
      } finally {
        await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(connection);
      }
    });
  } catch (error) {
    throw connected ? error : new DatabaseUnreachableError(databaseUrl, error);
  } finally {
    await db.destroy();
  }
}

async function migrate(db: Kysely<Database>, migrationTableSchema?: string): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
