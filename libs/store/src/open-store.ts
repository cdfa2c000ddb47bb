import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import { Pool, types as pgTypes } from 'pg';
import { migrationProvider } from './migrations';
import type { Database } from './schema';
import { sqliteDriver } from './sqlite-driver';

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

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

/** Opens the database of the options' dialect and brings its schema up to date. */
export async function openDatabase(options: StoreOptions): Promise<{ db: Kysely<Database>; dialect: Dialect }> {
  const isPostgres = options.databaseUrl !== undefined && /^postgres(ql)?:\/\//.test(options.databaseUrl);
  const db = isPostgres ? postgres(options.databaseUrl as string, options.poolSize ?? 20) : sqlite(options.dataDir);
  await migrate(db);
  return { db, dialect: isPostgres ? 'postgres' : 'sqlite' };
}

function sqlite(dataDir: string): Kysely<Database> {
  mkdirSync(dataDir, { recursive: true });
  const SqliteDatabase = sqliteDriver();
  const file = new SqliteDatabase(join(dataDir, SQLITE_FILE_NAME));
  file.pragma('journal_mode = WAL');
  // A connection that reopens a WAL database defaults to NORMAL; FULL keeps every answered write through a power loss.
  file.pragma('synchronous = FULL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) });
}

function postgres(connectionString: string, max: number): Kysely<Database> {
  const pool = new Pool({
    connectionString,
    max,
    // Sequences and epoch milliseconds stay far below 2^53, so 64-bit integers are read as numbers.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8 || oid === PG_NUMERIC ? (v: string) => Number(v) : pgTypes.getTypeParser(oid, format ?? 'text')) as typeof pgTypes.getTypeParser,
    },
  });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

async function migrate(db: Kysely<Database>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
