import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { MIGRATION_LOCK_KEY, SQLITE_FILE_NAME } from './open-store';
import { sqliteDriver } from './sqlite-driver';

/** The machine's PostgreSQL used by tests (trust auth); override with TEST_DATABASE_URL. */
export const TEST_POSTGRES_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  /** Pass as `databaseUrl`; undefined selects SQLite in `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  drop(): Promise<void>;
}

/** A fresh SQLite folder. */
export function sqliteTestDatabase(): TestDatabase {
  const dataDir = mkdtempSync(join(tmpdir(), 'brandwire-test-'));
  return { databaseUrl: undefined, dataDir, drop: () => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })) };
}

/** A fresh schema in the test PostgreSQL database, selected through the connection's search_path. */
export async function postgresTestDatabase(): Promise<TestDatabase> {
  const schema = `bw_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(TEST_POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'brandwire-test-'));
  return {
    databaseUrl: url.toString(),
    dataDir,
    drop: async () => {
      const client = new Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]); // see execInTestDatabase
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestDialect = 'sqlite' | 'postgres';
export const TEST_DIALECTS: readonly TestDialect[] = ['sqlite', 'postgres'];

export function testDatabase(dialect: TestDialect): Promise<TestDatabase> {
  return dialect === 'sqlite' ? Promise.resolve(sqliteTestDatabase()) : postgresTestDatabase();
}

/** How a service can run its store: each dialect, and the embedded SQLite file also on a thread of its own. */
export interface TestStoreMode {
  dialect: TestDialect;
  thread: boolean;
}

export const TEST_STORE_MODES: readonly TestStoreMode[] = [
  { dialect: 'sqlite', thread: false },
  { dialect: 'sqlite', thread: true },
  { dialect: 'postgres', thread: false },
];

export const storeModeName = (mode: TestStoreMode): string => (mode.thread ? `${mode.dialect} on a thread` : mode.dialect);

/**
 * Runs SQL statements in a test database, one after the other (a test taking the schema back to an earlier release).
 * On PostgreSQL under the migration lock: a service migrating meanwhile lists the columns of every schema's tables,
 * and fails on one dropped under it.
 */
export async function execInTestDatabase(db: TestDatabase, statements: readonly string[]): Promise<void> {
  if (db.databaseUrl === undefined) return execInSqliteFile(db.dataDir, statements.join(';\n'));
  const client = new Client({ connectionString: db.databaseUrl });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Runs SQL on the SQLite file of a data folder from a connection of its own, beside the service that has it open
 * (e.g. a trigger that makes one kind of write fail, to see what the service does when its disk refuses).
 */
export function execInSqliteFile(dataDir: string, sqlText: string): void {
  const Driver = sqliteDriver();
  const db = new Driver(join(dataDir, SQLITE_FILE_NAME));
  try {
    db.pragma('busy_timeout = 5000');
    db.exec(sqlText);
  } finally {
    db.close();
  }
}

/** Another writer on a data folder's SQLite file: while it holds the file, the service's writes wait, then fail busy. */
export interface SqliteFileHolder {
  hold(): void;
  release(): void;
  close(): void;
}

export function sqliteFileHolder(dataDir: string): SqliteFileHolder {
  const Driver = sqliteDriver();
  const db = new Driver(join(dataDir, SQLITE_FILE_NAME));
  return {
    hold: () => void db.prepare('BEGIN IMMEDIATE').run(),
    release: () => void db.prepare('COMMIT').run(),
    close: () => {
      if (db.inTransaction) db.prepare('ROLLBACK').run();
      db.close();
    },
  };
}

export { TcpProxy, startSilentListener } from './tcp-proxy';
