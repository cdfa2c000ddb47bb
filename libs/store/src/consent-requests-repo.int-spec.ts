import { type Store, openStore } from './index';
import { TEST_STORE_MODES, type TestDatabase, storeModeName, testDatabase } from './testing';

const T0 = 1_700_000_000_000;
const CONSULTATION = { channelKey: 'acme-kakao', userKey: 'amy', sessionId: 's-1' };

describe.each(TEST_STORE_MODES.map((mode) => [storeModeName(mode), mode] as const))('ConsentRequestsRepo on %s', (_name, { dialect, thread }) => {
  let db: TestDatabase;
  let store: Store;

  beforeEach(async () => {
    db = await testDatabase(dialect);
    store = await openStore({ dataDir: db.dataDir, databaseUrl: db.databaseUrl, now: () => T0, thread });
  });

  afterEach(async () => {
    await store.close();
    await db.drop();
  });

  it('reserves one request per consultation and remembers when it was sent', async () => {
    expect(await store.consentRequests.requestedAtMs(CONSULTATION)).toBeUndefined();
    expect(await store.consentRequests.reserve(CONSULTATION, T0)).toBe(true);
    expect(await store.consentRequests.reserve(CONSULTATION, T0 + 5)).toBe(false);
    expect(await store.consentRequests.requestedAtMs(CONSULTATION)).toBe(T0);
    expect(await store.consentRequests.reserve({ ...CONSULTATION, sessionId: 's-2' }, T0 + 9)).toBe(true);
    expect(await store.consentRequests.reserve({ ...CONSULTATION, userKey: 'ben' }, T0 + 9)).toBe(true);
  });

  it('grants exactly one of many reservations made at once', async () => {
    const granted = await Promise.all(Array.from({ length: 8 }, (_, i) => store.consentRequests.reserve(CONSULTATION, T0 + i)));
    expect(granted.filter(Boolean)).toHaveLength(1);
  });

  it('frees the consultation for a new request once released', async () => {
    await store.consentRequests.reserve(CONSULTATION, T0);
    await store.consentRequests.release(CONSULTATION);
    expect(await store.consentRequests.requestedAtMs(CONSULTATION)).toBeUndefined();
    expect(await store.consentRequests.reserve(CONSULTATION, T0 + 1)).toBe(true);
  });
});
