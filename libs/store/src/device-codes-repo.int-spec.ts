import { type Store, openStore } from './index';
import { TEST_STORE_MODES, type TestDatabase, storeModeName, testDatabase } from './testing';

const T0 = 1_700_000_000_000;

describe.each(TEST_STORE_MODES.map((mode) => [storeModeName(mode), mode] as const))('DeviceCodesRepo on %s', (_name, { dialect, thread }) => {
  let db: TestDatabase;
  let store: Store;

  beforeEach(async () => {
    db = await testDatabase(dialect);
    store = await openStore({ dataDir: db.dataDir, databaseUrl: db.databaseUrl, now: () => T0, thread });
    expect(await store.deviceCodes.create({ deviceCodeHash: 'hash-1', userCode: 'BCDFGHJK', createdMs: T0, expiresMs: T0 + 600_000, intervalSeconds: 5 })).toBe(true);
  });

  afterEach(async () => {
    await store.close();
    await db.drop();
  });

  it('stores a pending code, found by user code and by device code hash', async () => {
    const expected = {
      deviceCodeHash: 'hash-1',
      userCode: 'BCDFGHJK',
      createdMs: T0,
      expiresMs: T0 + 600_000,
      intervalSeconds: 5,
      lastPollMs: 0,
      state: 'pending',
      grant: undefined,
      decidedBy: null,
      issuedKeyId: null,
    };
    expect(await store.deviceCodes.findByUserCode('BCDFGHJK')).toEqual(expected);
    expect(await store.deviceCodes.findByDeviceCodeHash('hash-1')).toEqual(expected);
    expect(await store.deviceCodes.findByUserCode('XXXXXXXX')).toBeUndefined();
  });

  it('refuses a second code with the same user code', async () => {
    expect(await store.deviceCodes.create({ deviceCodeHash: 'hash-2', userCode: 'BCDFGHJK', createdMs: T0, expiresMs: T0 + 1, intervalSeconds: 5 })).toBe(false);
  });

  it('records polls and the interval in force', async () => {
    await store.deviceCodes.recordPoll('hash-1', T0 + 1_000, 10);
    expect(await store.deviceCodes.findByDeviceCodeHash('hash-1')).toMatchObject({ lastPollMs: T0 + 1_000, intervalSeconds: 10 });
  });

  it('approves once, then issues once', async () => {
    const grant = { name: 'cli', scope: 'BrandWrite' as const, brandIds: ['acme', 'globex'] };
    expect(await store.deviceCodes.approve('BCDFGHJK', grant, 'admin-key')).toBe(true);
    expect(await store.deviceCodes.approve('BCDFGHJK', grant, 'admin-key')).toBe(false);
    expect(await store.deviceCodes.deny('BCDFGHJK', 'admin-key')).toBe(false);
    expect(await store.deviceCodes.findByUserCode('BCDFGHJK')).toMatchObject({ state: 'approved', grant, decidedBy: 'admin-key' });
    const claims = await Promise.all([store.deviceCodes.claimForIssue('hash-1', 'key-a'), store.deviceCodes.claimForIssue('hash-1', 'key-b')]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await store.deviceCodes.findByUserCode('BCDFGHJK')).toMatchObject({ state: 'issued', issuedKeyId: claims[0] ? 'key-a' : 'key-b' });
  });

  it('denies a pending code, which can then be neither approved nor issued', async () => {
    expect(await store.deviceCodes.deny('BCDFGHJK', 'admin-key')).toBe(true);
    expect(await store.deviceCodes.approve('BCDFGHJK', { name: 'cli', scope: 'Admin', brandIds: ['acme'] }, 'admin-key')).toBe(false);
    expect(await store.deviceCodes.claimForIssue('hash-1', 'key-a')).toBe(false);
    expect(await store.deviceCodes.findByUserCode('BCDFGHJK')).toMatchObject({ state: 'denied', grant: undefined });
  });

  it('purges codes that expired before a time', async () => {
    expect(await store.deviceCodes.purgeExpired(T0 + 600_000)).toBe(0);
    expect(await store.deviceCodes.purgeExpired(T0 + 600_001)).toBe(1);
    expect(await store.deviceCodes.findByUserCode('BCDFGHJK')).toBeUndefined();
  });
});
