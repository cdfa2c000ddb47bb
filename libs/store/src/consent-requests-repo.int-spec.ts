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
    expect(await store.consentRequests.reserve(CONSULTATION, T0, 'bw-1')).toBe(true);
    expect(await store.consentRequests.reserve(CONSULTATION, T0 + 5, 'bw-2')).toBe(false);
    // the same bubble sent again (a keyed send resumed after a crash) finds the reservation its own
    expect(await store.consentRequests.reserve(CONSULTATION, T0 + 6, 'bw-1')).toBe(true);
    expect(await store.consentRequests.requestedAtMs(CONSULTATION)).toBe(T0);
    expect(await store.consentRequests.reserve({ ...CONSULTATION, sessionId: 's-2' }, T0 + 9, 'bw-3')).toBe(true);
    expect(await store.consentRequests.reserve({ ...CONSULTATION, userKey: 'ben' }, T0 + 9, 'bw-4')).toBe(true);
  });

  it('grants exactly one of many reservations made at once', async () => {
    const granted = await Promise.all(Array.from({ length: 8 }, (_, i) => store.consentRequests.reserve(CONSULTATION, T0 + i, `bw-5-${i}`)));
    expect(granted.filter(Boolean)).toHaveLength(1);
  });

  it('frees the consultation for a new request once released', async () => {
    await store.consentRequests.reserve(CONSULTATION, T0, 'bw-6');
    await store.consentRequests.release(CONSULTATION);
    expect(await store.consentRequests.requestedAtMs(CONSULTATION)).toBeUndefined();
    expect(await store.consentRequests.reserve(CONSULTATION, T0 + 1, 'bw-7')).toBe(true);
  });

  it('lets the consent result of a consultation be relayed once, also when many repeats come at once', async () => {
    await store.consentRequests.reserve(CONSULTATION, T0, 'bw-8');
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => store.consentRequests.claimRelay(CONSULTATION, T0 + 10 + i)));
    expect(claims.filter(Boolean)).toEqual([{ ...CONSULTATION, recordMade: false }]);
    expect(await store.consentRequests.claimRelay(CONSULTATION, T0 + 99)).toBeUndefined();
    // the request it answered is still the one sent at T0: the relay changes nothing of it
    expect(await store.consentRequests.requestedAtMs(CONSULTATION)).toBe(T0);
    expect(await store.consentRequests.claimRelay({ ...CONSULTATION, sessionId: 's-2' }, T0 + 99)).toEqual({ ...CONSULTATION, sessionId: 's-2', recordMade: true });
  });

  it('keeps a relay of a request another tool sent, which also counts as the request of that consultation', async () => {
    const elsewhere = { ...CONSULTATION, userKey: 'cleo' };
    expect(await store.consentRequests.claimRelay(elsewhere, T0 + 50)).toEqual({ ...elsewhere, recordMade: true });
    expect(await store.consentRequests.claimRelay(elsewhere, T0 + 60)).toBeUndefined();
    expect(await store.consentRequests.requestedAtMs(elsewhere)).toBe(T0 + 50);
    expect(await store.consentRequests.reserve(elsewhere, T0 + 70, 'bw-9')).toBe(false);
  });

  it('frees a relay given back, for the repeat of a callback that failed', async () => {
    await store.consentRequests.reserve(CONSULTATION, T0, 'bw-10');
    const claim = { ...CONSULTATION, recordMade: false };
    expect(await store.consentRequests.claimRelay(CONSULTATION, T0 + 1)).toEqual(claim);
    await store.consentRequests.releaseRelay(claim);
    expect(await store.consentRequests.claimRelay(CONSULTATION, T0 + 2)).toEqual({ ...CONSULTATION, recordMade: false });
    expect(await store.consentRequests.requestedAtMs(CONSULTATION)).toBe(T0);
  });

  it('forgets the request record a claim made when its relay is given back: the consultation is free for a request again', async () => {
    const elsewhere = { ...CONSULTATION, userKey: 'dora' };
    const claim = { ...elsewhere, recordMade: true };
    expect(await store.consentRequests.claimRelay(elsewhere, T0 + 1)).toEqual(claim);
    await store.consentRequests.releaseRelay(claim);
    expect(await store.consentRequests.requestedAtMs(elsewhere)).toBeUndefined();
    expect(await store.consentRequests.reserve(elsewhere, T0 + 2, 'bw-11')).toBe(true);
  });
});
