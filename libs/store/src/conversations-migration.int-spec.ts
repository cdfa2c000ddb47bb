import { Store } from './index';
import { TEST_DIALECTS, type TestDatabase, execInTestDatabase, testDatabase } from './testing';

/** Data written before migration 0006 (conversations keyed by session only) keeps its convIds after it. */
describe.each(TEST_DIALECTS)('conversations of data migrated to 0006 on %s', (dialect) => {
  let db: TestDatabase;

  beforeEach(async () => {
    db = await testDatabase(dialect);
  });
  afterEach(async () => {
    await db.drop();
  });

  async function open(): Promise<Store> {
    return Store.open({ dataDir: db.dataDir, databaseUrl: db.databaseUrl });
  }

  /** Takes the database back to before 0006 (0006 and every later migration undone), as a service of that release left it. */
  async function undo0006(): Promise<void> {
    const statements = ['alter table idempotency_keys drop column attempt_serials', 'alter table idempotency_keys drop column held_ms', 'alter table idempotency_keys drop column holder', 'alter table idempotency_keys drop column uncertain_serials', 'alter table api_keys drop column revoked_ms', 'alter table channels drop column seed_plan', 'alter table served_consultations drop column kept', 'drop table bubble_delete_claims', 'drop index conversations_session', 'drop table consent_requests', 'drop index conversations_customer_session', "delete from kysely_migration where name >= '0006'"];
    await execInTestDatabase(db, statements);
  }

  it('keeps a handed-out convId naming the same conversation, continues it, and gives another customer on that session id its own', async () => {
    let store = await open();
    await store.directory.upsertBrand({ id: 'acme', name: 'Acme' });
    await store.directory.upsertChannel({ key: 'acme-kakao', brandId: 'acme', name: 'Acme Kakao', type: 'kakao', chatbotBuilder: false, planConsultations: 10, senderKey: 'a'.repeat(40) });
    await store.journal.append('acme-kakao', [
      { userKey: 'ann', sessionId: '500', kind: 'reference', text: 'Consultation started', timestampUnixMs: 1 },
      { userKey: 'ann', sessionId: '500', kind: 'message', text: 'before the upgrade', timestampUnixMs: 2 },
    ]);
    await store.close();
    await undo0006();

    store = await open();
    try {
      expect(await store.journal.findConversation('acme-kakao', '500')).toMatchObject({ convId: '500', userKey: 'ann', count: 2 });
      await store.journal.append('acme-kakao', [{ userKey: 'ann', sessionId: '500', kind: 'message', text: 'after the upgrade', timestampUnixMs: 3 }]);
      await store.journal.append('acme-kakao', [{ userKey: 'bob', sessionId: '500', kind: 'reference', text: 'Consultation started', timestampUnixMs: 4 }]);
      expect((await store.journal.getConversation('acme-kakao', '500'))?.items.map((i) => i.text)).toEqual(['Consultation started', 'before the upgrade', 'after the upgrade']);
      const bob = await store.journal.findCustomerConversation('acme-kakao', 'bob', '500');
      expect(bob?.convId).toMatch(/^500-u[0-9a-f]{12}$/);
      expect((await store.journal.getConversation('acme-kakao', String(bob?.convId)))?.items.map((i) => [i.userKey, i.text])).toEqual([['bob', 'Consultation started']]);
    } finally {
      await store.close();
    }
  });
});
