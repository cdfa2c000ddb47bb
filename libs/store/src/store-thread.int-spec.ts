import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SQLITE_FILE_NAME, Store, openStore, openStoreThread } from './index';
import { sqliteDriver } from './sqlite-driver';
import { type TestDatabase, postgresTestDatabase, sqliteTestDatabase } from './testing';

const CHANNEL = { key: 'acme-kakao', brandId: 'acme', name: 'Acme Kakao', type: 'kakao', chatbotBuilder: true, planConsultations: 1000, senderKey: 'a'.repeat(40) };
const message = (userKey: string, text: string) => ({ userKey, sessionId: 's1', kind: 'message' as const, text, timestampUnixMs: 1 });

describe('the store on a thread of its own', () => {
  let db: TestDatabase;
  let store: Store;
  let clock: number;

  beforeEach(async () => {
    db = sqliteTestDatabase();
    clock = 1_700_000_000_000;
    store = await openStoreThread({ dataDir: db.dataDir, now: () => clock });
    await store.directory.upsertBrand({ id: 'acme', name: 'Acme' });
    await store.directory.upsertChannel(CHANNEL);
  });

  afterEach(async () => {
    await store.close();
    await db.drop();
  });

  it('answers as the store on the calling thread does, many calls at once in order of arrival', async () => {
    const items = await Promise.all(Array.from({ length: 50 }, (_, i) => store.journal.append('acme-kakao', [message(`u${i % 5}`, `m${i}`)])));
    expect(items.map(([item]) => item?.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect((await store.journal.listMessages('acme-kakao', 'u0', 3)).map((m) => m.text)).toEqual(['m45', 'm40', 'm35']);
    expect(await store.journal.getRoom('acme-kakao', 'nobody')).toBeUndefined();
  });

  it("tells of a room's change before the write that made it answers", async () => {
    const events: string[] = [];
    const stop = store.journal.onRoomChange((channelKey, userKey) => events.push(`changed ${channelKey}/${userKey}`));
    await store.journal.append('acme-kakao', [message('u1', 'hello')]);
    events.push('answered');
    stop();
    await store.journal.append('acme-kakao', [message('u1', 'again')]);
    expect(events).toEqual(['changed acme-kakao/u1', 'answered']);
  });

  it("passes a repository's error back with its message", async () => {
    await expect(store.journal.append('no-such-channel', [message('u1', 'hello')])).rejects.toThrow('channel no-such-channel has no journal sequence');
    // the thread goes on serving
    expect((await store.directory.findChannel('acme-kakao'))?.name).toBe('Acme Kakao');
  });

  it('fails only the call whose arguments cannot be copied to the thread', async () => {
    const copied = store.directory.findChannel('acme-kakao');
    const uncopyable = store.directory.findChannel((() => 'acme-kakao') as unknown as string);
    await expect(uncopyable).rejects.toThrow(/could not be cloned/);
    expect((await copied)?.key).toBe('acme-kakao');
  });

  it("writes times by the caller's clock, also after it moved", async () => {
    clock += 86_400_000;
    await store.directory.upsertBrand({ id: 'later', name: 'Later' });
    await store.close();
    const file = new (sqliteDriver())(join(db.dataDir, SQLITE_FILE_NAME), { readonly: true });
    const created = file.prepare('select id, created_ms from brands order by id').all();
    file.close();
    expect(created).toEqual([
      { id: 'acme', created_ms: 1_700_000_000_000 },
      { id: 'later', created_ms: 1_700_086_400_000 },
    ]);
    store = await openStoreThread({ dataDir: db.dataDir });
  });

  it('answers the calls made before close, refuses those after, and closes once however often asked', async () => {
    const before = store.journal.append('acme-kakao', [message('u1', 'last words')]);
    const closing = [store.close(), store.close()];
    await expect(store.directory.listBrands()).rejects.toThrow('the store is closed');
    expect((await before).map((item) => item.seq)).toEqual([1]);
    await Promise.all(closing);
    store = await openStoreThread({ dataDir: db.dataDir });
    expect((await store.journal.listMessages('acme-kakao', 'u1', 10)).map((m) => m.text)).toEqual(['last words']);
  });
});

describe('opening the store on a thread', () => {
  it('fails as opening it on the calling thread does', async () => {
    const db = sqliteTestDatabase();
    const notAFolder = join(db.dataDir, 'file');
    writeFileSync(notAFolder, '');
    try {
      const here = await Store.open({ dataDir: notAFolder }).then(
        () => 'opened',
        (error: Error) => error.message,
      );
      await expect(openStoreThread({ dataDir: notAFolder })).rejects.toThrow(here);
    } finally {
      await db.drop();
    }
  });

  it('keeps PostgreSQL on the calling thread', async () => {
    const db = await postgresTestDatabase();
    const store = await openStore({ dataDir: db.dataDir, databaseUrl: db.databaseUrl, thread: true });
    try {
      expect(store).toBeInstanceOf(Store);
      expect(store.dialect).toBe('postgres');
    } finally {
      await store.close();
      await db.drop();
    }
  });
});
