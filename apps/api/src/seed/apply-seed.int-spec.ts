import { Store } from '@brandwire/store';
import { type TestDatabase, sqliteTestDatabase } from '@brandwire/store/testing';
import { applySeed } from './apply-seed';
import { SeedError, parseSeed } from './seed-file';

describe('applying a seed', () => {
  let database: TestDatabase;
  let store: Store;

  beforeEach(async () => {
    database = sqliteTestDatabase();
    store = await Store.open({ dataDir: database.dataDir });
  });
  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  it('writes nothing when a key names a brand that does not exist', async () => {
    const seed = parseSeed(
      JSON.stringify({
        brands: [{ id: 'acme', channels: [{ key: 'acme-kakao', type: 'kakao' }] }],
        keys: [{ token: 'a-long-random-token', name: 'ops', scope: 'Admin', brands: ['acme', 'globex'] }],
      })
    );
    await expect(applySeed(store, seed)).rejects.toThrow(new SeedError('keys[0].brands[1] names brand "globex", which is neither in the seed nor stored'));
    expect([await store.directory.listBrands(), await store.directory.listChannels(), await store.directory.countApiKeys()]).toEqual([[], [], 0]);
  });

  it('takes a key of a brand stored by an earlier seed', async () => {
    await applySeed(store, parseSeed(JSON.stringify({ brands: [{ id: 'acme' }] })));
    await applySeed(store, parseSeed(JSON.stringify({ keys: [{ token: 'a-long-random-token', name: 'ops', scope: 'Admin', brands: ['acme'] }] })));
    expect((await store.directory.listApiKeys()).map((key) => [key.name, key.brandIds])).toEqual([['ops', ['acme']]]);
  });
});
