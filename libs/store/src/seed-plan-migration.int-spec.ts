import { Store } from './index';
import { TEST_DIALECTS, type TestDatabase, execInTestDatabase, testDatabase } from './testing';

/** A plan an Admin set before migration 0011 is kept when the seed is applied after it. */
describe.each(TEST_DIALECTS)('channel plans of data migrated to 0011 on %s', (dialect) => {
  let db: TestDatabase;

  beforeEach(async () => {
    db = await testDatabase(dialect);
  });
  afterEach(async () => {
    await db.drop();
  });

  const open = (): Promise<Store> => Store.open({ dataDir: db.dataDir, databaseUrl: db.databaseUrl });
  const seeded = (store: Store, planConsultations: number) =>
    store.directory.upsertChannel({ key: 'acme-kakao', brandId: 'acme', name: 'Acme Kakao', type: 'kakao', chatbotBuilder: false, planConsultations, senderKey: 'a'.repeat(40) });

  /** Takes the database back to before 0011 (0011 and every later migration undone), as a service of that release left it. */
  async function undo0011(): Promise<void> {
    const statements = [
      'alter table idempotency_keys drop column attempt_serials',
      'alter table idempotency_keys drop column held_ms',
      'alter table idempotency_keys drop column holder',
      'alter table idempotency_keys drop column uncertain_serials',
      'alter table consent_requests drop column serial',
      'alter table consent_requests drop column relayed_ms',
      'alter table api_keys drop column revoked_ms',
      'alter table channels drop column seed_plan',
      "delete from kysely_migration where name >= '0011'",
    ];
    await execInTestDatabase(db, statements);
  }

  it('keeps the plan an Admin set before the upgrade, then follows a seed that changes its value', async () => {
    let store = await open();
    await store.directory.upsertBrand({ id: 'acme', name: 'Acme' });
    await seeded(store, 1000);
    await store.billing.setPlan('acme-kakao', 5000);
    await store.close();
    await undo0011();

    store = await open();
    try {
      await seeded(store, 1000);
      expect((await store.directory.findChannel('acme-kakao'))?.planConsultations).toBe(5000);
      await seeded(store, 1000);
      expect((await store.directory.findChannel('acme-kakao'))?.planConsultations).toBe(5000);
      await seeded(store, 3000);
      expect((await store.directory.findChannel('acme-kakao'))?.planConsultations).toBe(3000);
    } finally {
      await store.close();
    }
  });
});
