import { setTimeout as sleep } from 'node:timers/promises';
import { type Store, openStore } from '@brandwire/store';
import { type TestDatabase, testDatabase } from '@brandwire/store/testing';
import { ClaimRenewals } from './claim-renewals';

describe('ClaimRenewals on PostgreSQL', () => {
  let db: TestDatabase;
  let store: Store;
  let now = 1_000;

  beforeAll(async () => {
    db = await testDatabase('postgres');
    store = await openStore({ dataDir: db.dataDir, databaseUrl: db.databaseUrl });
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  const retryElsewhere = (cutOffBeforeMs: number) => store.idempotency.claim('k1', 'long-send', 'hash', now, 0, { id: 'other-instance', othersCutOffBeforeMs: cutOffBeforeMs });

  it('keeps a claim held while its send goes on, however long, and lets it be taken over once let go', async () => {
    const renewals = new ClaimRenewals(store, () => now, 20);
    expect(await store.idempotency.claim('k1', 'long-send', 'hash', 1_000, 0, { id: 'this-instance', othersCutOffBeforeMs: 0 })).toEqual({ kind: 'new' });
    const letGo = renewals.hold({ keyId: 'k1', idemKey: 'long-send', claimedMs: 1_000 });
    // far past the cut-off of a claim made at 1,000: the renewals say it is still being answered
    now = 600_000;
    await sleep(100);
    expect(await retryElsewhere(500_000)).toEqual({ kind: 'in_progress' });

    letGo();
    now = 2_000_000;
    await sleep(100);
    expect(await retryElsewhere(1_900_000)).toEqual({ kind: 'new' });
  });
});
