import { Store } from './index';
import { TEST_DIALECTS, type TestDatabase, testDatabase } from './testing';

/** The instances of one deployment, each with its own store: several on PostgreSQL, one on the SQLite file. */
const INSTANCES = { postgres: 6, sqlite: 1 } as const;
const SAVES = 6;

describe.each(TEST_DIALECTS)('saving one API key from every instance at once (%s)', (dialect) => {
  let database: TestDatabase;
  let stores: Store[];

  beforeEach(async () => {
    database = await testDatabase(dialect);
    const first = await Store.open({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
    await first.directory.upsertBrand({ id: 'acme', name: 'Acme' });
    await first.directory.upsertBrand({ id: 'other', name: 'Other' });
    const more = INSTANCES[dialect] - 1;
    stores = [first, ...(await Promise.all(Array.from({ length: more }, () => Store.open({ dataDir: database.dataDir, databaseUrl: database.databaseUrl }))))];
  });

  afterEach(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await database.drop();
  });

  it('stores the key once, as a seed applied by each of them says', async () => {
    await Promise.all(
      Array.from({ length: SAVES }, (_, i) =>
        (stores[i % stores.length] as Store).directory.saveApiKey({ id: `key-${i}`, tokenHash: 'same-hash', name: 'ops', scope: 'BrandWrite', brandIds: ['acme', 'other'] }),
      ),
    );
    const [first] = stores as [Store];
    expect(await first.directory.countApiKeys()).toBe(1);
    expect(await first.directory.findApiKeyByHash('same-hash')).toEqual({ id: expect.stringMatching(/^key-\d$/), name: 'ops', scope: 'BrandWrite', brandIds: ['acme', 'other'] });
  });

  it('keeps the id of the key while concurrent saves change its name, scope and brands', async () => {
    const [first] = stores as [Store];
    await first.directory.saveApiKey({ id: 'original', tokenHash: 'h', name: 'old', scope: 'BrandRead', brandIds: ['other'] });
    await Promise.all(stores.map((store, i) => store.directory.saveApiKey({ id: `again-${i}`, tokenHash: 'h', name: 'new', scope: 'Admin', brandIds: ['acme'] })));
    expect(await first.directory.findApiKeyByHash('h')).toEqual({ id: 'original', name: 'new', scope: 'Admin', brandIds: ['acme'] });
    expect(await first.directory.countApiKeys()).toBe(1);
  });
});

describe.each(TEST_DIALECTS)('revoking an API key (%s)', (dialect) => {
  let database: TestDatabase;
  let store: Store;

  beforeEach(async () => {
    database = await testDatabase(dialect);
    store = await Store.open({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
    await store.directory.upsertBrand({ id: 'acme', name: 'Acme' });
    await store.directory.upsertBrand({ id: 'other', name: 'Other' });
  });

  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  it('finds the key no more, lists it no more, and never brings it back when its token is saved again', async () => {
    await store.directory.saveApiKey({ id: 'k1', tokenHash: 'h1', name: 'ops', scope: 'Admin', brandIds: ['acme', 'other'] });
    await store.directory.saveApiKey({ id: 'k2', tokenHash: 'h2', name: 'agent', scope: 'BrandWrite', brandIds: ['acme'] });
    expect((await store.directory.listApiKeys()).map((k) => [k.id, k.name, k.scope, k.brandIds])).toEqual([
      ['k1', 'ops', 'Admin', ['acme', 'other']],
      ['k2', 'agent', 'BrandWrite', ['acme']],
    ]);
    expect(await store.directory.findApiKeyById('k2')).toMatchObject({ id: 'k2', name: 'agent', scope: 'BrandWrite', brandIds: ['acme'] });
    expect(await store.directory.revokeApiKey('k2')).toBe(true);
    expect(await store.directory.findApiKeyById('k2')).toBeUndefined();
    expect(await store.directory.revokeApiKey('k2')).toBe(false);
    expect(await store.directory.revokeApiKey('nope')).toBe(false);
    expect(await store.directory.findApiKeyByHash('h2')).toBeUndefined();
    expect((await store.directory.listApiKeys()).map((k) => k.id)).toEqual(['k1']);
    expect(await store.directory.saveApiKey({ id: 'k3', tokenHash: 'h2', name: 'agent again', scope: 'Admin', brandIds: ['other'] })).toBe('revoked');
    expect(await store.directory.findApiKeyByHash('h2')).toBeUndefined();
    expect(await store.directory.saveApiKey({ id: 'k4', tokenHash: 'h1', name: 'ops2', scope: 'Admin', brandIds: ['acme'] })).toBe('saved');
    expect(await store.directory.findApiKeyByHash('h1')).toEqual({ id: 'k1', name: 'ops2', scope: 'Admin', brandIds: ['acme'] });
    // a revoked key still counts as a key made: a start does not make demo keys again
    expect(await store.directory.countApiKeys()).toBe(2);
  });
});
