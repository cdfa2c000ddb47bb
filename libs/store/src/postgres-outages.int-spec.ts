import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { Client } from 'pg';
import { isDatabaseUnreachable, openDatabase } from './open-store';
import { CONNECT_TIMEOUT_MS, QUERY_TIMEOUT_MS } from './postgres-pool';
import type { Database } from './schema';
import { TEST_POSTGRES_URL, type TestDatabase, postgresTestDatabase } from './testing';
import { TcpProxy, startSilentListener } from './tcp-proxy';

/** The test's own connections, told apart from any other test's on the same server by their application_name. */
function named(databaseUrl: string, applicationName: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('application_name', applicationName);
  return url.toString();
}

async function asAdmin<T>(work: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

async function eventually(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within 5 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function answers(db: Kysely<Database>): Promise<number | undefined> {
  const { rows } = await sql<{ n: number }>`select 1 as n`.execute(db);
  return rows[0]?.n;
}

describe('a store on PostgreSQL whose connections the server ends', () => {
  let database: TestDatabase;
  let db: Kysely<Database>;
  let applicationName: string;
  let warn: jest.SpiedFunction<typeof process.emitWarning>;
  const warnings = (): string[] => warn.mock.calls.map(([warning]) => String(warning));

  const terminateBackends = (): Promise<number> =>
    asAdmin(async (admin) => (await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [applicationName])).rowCount ?? 0);

  beforeEach(async () => {
    warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    database = await postgresTestDatabase();
    applicationName = `bw_outage_${randomBytes(4).toString('hex')}`;
    ({ db } = await openDatabase({ dataDir: database.dataDir, databaseUrl: named(database.databaseUrl as string, applicationName) }));
  });

  afterEach(async () => {
    warn.mockRestore();
    await db.destroy();
    await database.drop();
  });

  it('lives on when its idle connections are ended, logs why, and answers the next query on new ones', async () => {
    await Promise.all([1, 2, 3].map(() => sql`select pg_sleep(0.05)`.execute(db)));
    expect(await terminateBackends()).toBe(3);
    await eventually(() => warnings().length >= 3, 'every idle connection reported lost');
    expect(warnings()).toContainEqual(expect.stringContaining('terminating connection due to administrator command'));
    expect(await answers(db)).toBe(1);
  });

  it('fails the transaction whose connection is ended under it as unreachable, and answers the next query', async () => {
    const sleeping = db.transaction().execute((trx) => sql`select pg_sleep(2)`.execute(trx));
    await eventually(
      () => asAdmin(async (admin) => (await admin.query("select 1 from pg_stat_activity where application_name = $1 and query like 'select pg_sleep%'", [applicationName])).rowCount === 1),
      'the transaction is sleeping',
    );
    await terminateBackends();
    const failure: unknown = await sleeping.then(
      () => 'answered',
      (error: unknown) => error,
    );
    expect(isDatabaseUnreachable(failure)).toBe(true);
    expect(await answers(db)).toBe(1);
  });
});

describe('a store on PostgreSQL whose link fails', () => {
  const target = { host: new URL(TEST_POSTGRES_URL).hostname, port: Number(new URL(TEST_POSTGRES_URL).port || 5432) };

  it(
    'gives up opening a database that accepts connections and never answers, in seconds, as unreachable in one line',
    async () => {
      const silent = await startSilentListener();
      try {
        const started = Date.now();
        const failure: unknown = await openDatabase({ dataDir: '/nonexistent', databaseUrl: `postgres://postgres@127.0.0.1:${silent.port}/test` }).then(
          () => 'opened',
          (error: unknown) => error,
        );
        expect(Date.now() - started).toBeLessThan(CONNECT_TIMEOUT_MS + 3_000);
        expect(isDatabaseUnreachable(failure)).toBe(true);
        expect((failure as Error).message).toBe(
          `cannot connect to the PostgreSQL database of DATABASE_URL (postgres://postgres@127.0.0.1:${silent.port}/test): Connection terminated due to connection timeout`,
        );
      } finally {
        await silent.close();
      }
    },
    CONNECT_TIMEOUT_MS + 10_000,
  );

  describe('through a relay', () => {
    let database: TestDatabase;
    let proxy: TcpProxy;
    let db: Kysely<Database>;

    beforeEach(async () => {
      database = await postgresTestDatabase();
      proxy = await TcpProxy.start(target);
      ({ db } = await openDatabase({ dataDir: database.dataDir, databaseUrl: proxy.urlThrough(database.databaseUrl as string) }));
    });

    afterEach(async () => {
      await proxy.close();
      await db.destroy();
      await database.drop();
    });

    it(
      'fails a transaction whose link froze once its query times out, without waiting again for the rollback, and answers the next query',
      async () => {
        expect(await answers(db)).toBe(1);
        proxy.freeze();
        const started = Date.now();
        const failure: unknown = await db.transaction().execute((trx) => sql`select 1`.execute(trx)).then(
          () => 'answered',
          (error: unknown) => error,
        );
        const waited = Date.now() - started;
        expect(isDatabaseUnreachable(failure)).toBe(true);
        expect(waited).toBeGreaterThanOrEqual(QUERY_TIMEOUT_MS - 100);
        expect(waited).toBeLessThan(QUERY_TIMEOUT_MS + 3_000);
        expect(await answers(db)).toBe(1);
      },
      QUERY_TIMEOUT_MS + 15_000,
    );

    it('fails queries while the database refuses connections, as unreachable, and answers again once it is back', async () => {
      expect(await answers(db)).toBe(1);
      await proxy.close();
      // the first query may still find a connection of before, reset; the next one has to connect
      const failures: unknown[] = [];
      for (const _ of [1, 2]) failures.push(await answers(db).then(() => 'answered', (error: unknown) => error));
      expect(failures.map(isDatabaseUnreachable)).toEqual([true, true]);
      expect(failures[1]).toMatchObject({ code: 'ECONNREFUSED' });
      await proxy.open();
      expect(await answers(db)).toBe(1);
    });
  });
});
