import { TEST_POSTGRES_URL, TcpProxy, type TestDatabase, testDatabase } from '@brandwire/store/testing';
import { ServiceHarness, TOKENS } from '../test-support/service-harness';

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within 5 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const UNAVAILABLE = { ok: false, code: 'STORAGE_UNAVAILABLE', message: 'the database cannot be reached just now; try again' };

describe('the service on PostgreSQL while the database cannot be reached', () => {
  let database: TestDatabase;
  let relay: TcpProxy;
  let h: ServiceHarness;

  beforeAll(async () => {
    database = await testDatabase('postgres');
    const target = new URL(TEST_POSTGRES_URL);
    relay = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    h = await ServiceHarness.start({ env: { DATABASE_URL: relay.urlThrough(database.databaseUrl as string) } });
  });
  afterAll(async () => {
    await relay.open().catch(() => undefined);
    await h.stop();
    await relay.close();
    await database.drop();
  });

  afterEach(async () => {
    await relay.open().catch(() => undefined);
  });

  it('answers a request with 503 STORAGE_UNAVAILABLE in the envelope, and serves it again once the database is back', async () => {
    const rooms = () => h.get('/api/agent/rooms?brand=acme-kakao', TOKENS.reader);
    expect((await rooms()).status).toBe(200);
    await relay.close();
    for (const _ of [1, 2]) {
      const down = await rooms();
      expect({ status: down.status, body: down.body }).toEqual({ status: 503, body: UNAVAILABLE });
    }
    await relay.open();
    expect((await rooms()).status).toBe(200);
  });

  it('says on /healthz, within a second or so, that the database cannot be reached, and that it is back', async () => {
    expect((await h.get('/healthz', null)).body).toEqual({ ok: true, storage: 'postgres' });
    await relay.close();
    await eventually(async () => (await h.get('/healthz', null)).status === 503, '/healthz answers 503');
    expect((await h.get('/healthz', null)).body).toEqual(UNAVAILABLE);
    await relay.open();
    await eventually(async () => (await h.get('/healthz', null)).status === 200, '/healthz answers 200');
    expect((await h.get('/healthz', null)).body).toEqual({ ok: true, storage: 'postgres' });
  });
});
