import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SQLITE_FILE_NAME, Store, openStore } from './index';
import { TEST_STORE_MODES, type TestDatabase, execInTestDatabase, storeModeName, testDatabase } from './testing';

/** A running service that takes over no one's claims. */
const ME = { id: 'instance-a', othersCutOffBeforeMs: 0 };

describe.each(TEST_STORE_MODES.map((mode) => [storeModeName(mode), mode] as const))('Store on %s', (_name, { dialect, thread }) => {
  let db: TestDatabase;
  let store: Store;

  beforeEach(async () => {
    db = await testDatabase(dialect);
    store = await openStore({ dataDir: db.dataDir, databaseUrl: db.databaseUrl, now: () => 1_700_000_000_000, thread });
    await store.directory.upsertBrand({ id: 'acme', name: 'Acme' });
    await store.directory.upsertChannel({
      key: 'acme-kakao',
      brandId: 'acme',
      name: 'Acme Kakao',
      type: 'kakao',
      chatbotBuilder: true,
      planConsultations: 1000,
      senderKey: 'a'.repeat(40),
    });
  });

  afterEach(async () => {
    await store.close();
    await db.drop();
  });

  it('uses the dialect it was asked for', () => {
    expect(store.dialect).toBe(dialect);
    expect(existsSync(join(db.dataDir, SQLITE_FILE_NAME))).toBe(dialect === 'sqlite');
  });

  it('runs its migrations once: reopening keeps the data', async () => {
    await store.close();
    store = await openStore({ dataDir: db.dataDir, databaseUrl: db.databaseUrl, thread });
    expect(await store.directory.findChannel('acme-kakao')).toMatchObject({ brandId: 'acme', chatbotBuilder: true });
  });

  it('upserts channels idempotently and finds them by sender key', async () => {
    await store.directory.upsertChannel({
      key: 'acme-kakao',
      brandId: 'acme',
      name: 'Renamed',
      type: 'kakao',
      chatbotBuilder: false,
      planConsultations: 5,
      senderKey: 'a'.repeat(40),
    });
    expect(await store.directory.listChannels()).toEqual([
      { key: 'acme-kakao', brandId: 'acme', name: 'Renamed', type: 'kakao', chatbotBuilder: false, planConsultations: 5, senderKey: 'a'.repeat(40), consultationsUsed: 0 },
    ]);
    expect((await store.directory.findChannelBySenderKey('a'.repeat(40)))?.key).toBe('acme-kakao');
    expect(await store.directory.findChannel('nope')).toBeUndefined();
  });

  it('stores API keys by hash and updates them when the same token is saved again', async () => {
    await store.directory.saveApiKey({ id: 'k1', tokenHash: 'h1', name: 'ops', scope: 'Admin', brandIds: ['acme'] });
    await store.directory.saveApiKey({ id: 'k2', tokenHash: 'h1', name: 'ops2', scope: 'BrandRead', brandIds: [] });
    expect(await store.directory.findApiKeyByHash('h1')).toEqual({ id: 'k1', name: 'ops2', scope: 'BrandRead', brandIds: [] });
    expect(await store.directory.findApiKeyByHash('h2')).toBeUndefined();
    expect(await store.directory.countApiKeys()).toBe(1);
  });

  it('assigns increasing seqs per channel and keeps rooms and conversations current', async () => {
    const items = await store.journal.append('acme-kakao', [
      { userKey: 'u1', sessionId: '100', kind: 'reference', text: '', timestampUnixMs: 1 },
      { userKey: 'u1', sessionId: '100', kind: 'message', text: 'hello', timestampUnixMs: 2 },
    ]);
    const [agent] = await store.journal.append('acme-kakao', [
      { userKey: 'u1', sessionId: '100', kind: 'agent', text: 'hi!', timestampUnixMs: 3, serial: 'bw-1-x', byBot: true },
    ]);
    expect(items.map((i) => i.seq)).toEqual([1, 2]);
    expect(agent).toMatchObject({ seq: 3, serial: 'bw-1-x', byBot: true, deleted: false });

    const messages = await store.journal.listMessages('acme-kakao', 'u1', 2);
    expect(messages.map((m) => [m.seq, m.kind, m.text])).toEqual([
      [3, 'agent', 'hi!'],
      [2, 'message', 'hello'],
    ]);
    expect(await store.journal.getRoom('acme-kakao', 'u1')).toMatchObject({
      state: 'in_progress',
      sessionId: '100',
      lastSeq: 3,
      lastText: 'hi!',
      lastKind: 'agent',
      lastTimestampUnixMs: 3,
      count: 3,
    });
    expect((await store.journal.findBySerial('acme-kakao', 'bw-1-x'))?.seq).toBe(3);
  });

  it('closes the room and its conversation on ended, and opens a new one on the next reference', async () => {
    await store.journal.append('acme-kakao', [
      { userKey: 'u1', sessionId: '100', kind: 'reference', text: '', timestampUnixMs: 1 },
      { userKey: 'u1', sessionId: '100', kind: 'message', text: 'a', timestampUnixMs: 2 },
      { userKey: 'u1', sessionId: '100', kind: 'ended', text: 'ended', timestampUnixMs: 3 },
    ]);
    expect(await store.journal.listRooms('acme-kakao', { max: 10 })).toEqual([]);
    expect((await store.journal.listRooms('acme-kakao', { max: 10, includeClosed: true }))[0]?.state).toBe('ended');

    await store.journal.append('acme-kakao', [
      { userKey: 'u1', sessionId: '200', kind: 'reference', text: '', timestampUnixMs: 4, meta: { reference: { extra: 'x' } } },
      { userKey: 'u1', sessionId: '200', kind: 'message', text: 'b', timestampUnixMs: 5 },
    ]);
    const rooms = await store.journal.listRooms('acme-kakao', { max: 10 });
    expect(rooms.map((r) => [r.userKey, r.sessionId, r.state, r.count])).toEqual([['u1', '200', 'in_progress', 5]]);

    const conversations = await store.journal.listConversations('acme-kakao', { max: 10 });
    expect(conversations.map((c) => [c.convId, c.ended, c.count, c.lastText])).toEqual([
      ['200', false, 2, 'b'],
      ['100', true, 3, 'ended'],
    ]);
    const first = await store.journal.getConversation('acme-kakao', '100');
    expect(first?.items.map((i) => i.kind)).toEqual(['reference', 'message', 'ended']);
    const second = await store.journal.getConversation('acme-kakao', '200');
    expect(second?.items[0]?.meta).toEqual({ reference: { extra: 'x' } });
    expect(await store.journal.getConversation('acme-kakao', '999')).toBeUndefined();
  });

  it('never repeats a seq under concurrent appends', async () => {
    const writes = Array.from({ length: 40 }, (_, i) =>
      store.journal.append('acme-kakao', [{ userKey: `u${i % 4}`, sessionId: '1', kind: 'message', text: `m${i}`, timestampUnixMs: i }]),
    );
    const seqs = (await Promise.all(writes)).flat().map((i) => i.seq);
    expect(new Set(seqs).size).toBe(40);
    expect(Math.max(...seqs)).toBe(40);
    expect(await store.journal.lastSeq('acme-kakao')).toBe(40);
  });

  it('keeps the consultation in progress when an end of an earlier session is journaled late', async () => {
    await store.journal.append('acme-kakao', [
      { userKey: 'u1', sessionId: '100', kind: 'reference', text: '', timestampUnixMs: 1 },
      { userKey: 'u1', sessionId: '101', kind: 'reference', text: '', timestampUnixMs: 2 },
      { userKey: 'u1', sessionId: '100', kind: 'expired', text: 'late', timestampUnixMs: 3 },
    ]);
    expect(await store.journal.getRoom('acme-kakao', 'u1')).toMatchObject({ sessionId: '101', state: 'in_progress', count: 3 });
    expect((await store.journal.findConversation('acme-kakao', '100'))?.ended).toBe(true);
    expect((await store.journal.findConversation('acme-kakao', '101'))?.ended).toBe(false);
  });

  it('journals the end of a consultation once, however often it is reported, even concurrently', async () => {
    await store.journal.append('acme-kakao', [{ userKey: 'u1', sessionId: '100', kind: 'reference', text: '', timestampUnixMs: 1 }]);
    const end = { userKey: 'u1', sessionId: '100', kind: 'ended' as const, text: 'ended', timestampUnixMs: 2 };
    const results = await Promise.all([1, 2, 3, 4].map(() => store.journal.appendSessionEnd('acme-kakao', end)));
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    expect((await store.journal.listMessages('acme-kakao', 'u1', 10)).map((m) => m.kind)).toEqual(['ended', 'reference']);
    expect(await store.journal.lastSeq('acme-kakao')).toBe(2);
  });

  it('keeps a plan an Admin set when the seed is applied again, and applies a plan the seed changes', async () => {
    const seeded = (planConsultations: number) =>
      store.directory.upsertChannel({ key: 'acme-kakao', brandId: 'acme', name: 'Acme Kakao', type: 'kakao', chatbotBuilder: true, planConsultations, senderKey: 'b'.repeat(40) });
    await seeded(1000);
    expect((await store.directory.findChannel('acme-kakao'))?.planConsultations).toBe(1000);
    await store.billing.setPlan('acme-kakao', 5000);
    await seeded(1000);
    expect((await store.directory.findChannel('acme-kakao'))?.planConsultations).toBe(5000);
    await seeded(2000);
    expect((await store.directory.findChannel('acme-kakao'))?.planConsultations).toBe(2000);
    await seeded(2000);
    expect((await store.directory.findChannel('acme-kakao'))?.planConsultations).toBe(2000);
  });

  it('charges a consultation once per day, never past the plan, and gives a count back on release', async () => {
    await store.billing.setPlan('acme-kakao', 2);
    const served = (sessionId: string, day = '2026-11-21') => ({ channelKey: 'acme-kakao', sessionId, userKey: 'u', day });
    expect(await store.billing.reserve(served('s1'))).toBe('charged');
    expect(await store.billing.reserve(served('s1'))).toBe('free');
    expect(await store.billing.reserve(served('s1', '2026-11-22'))).toBe('charged');
    expect(await store.billing.reserve(served('s2'))).toBe('exhausted');
    expect((await store.directory.findChannel('acme-kakao'))?.consultationsUsed).toBe(2);

    await store.billing.release(served('s1', '2026-11-22'));
    await store.billing.release(served('s1', '2026-11-22'));
    expect((await store.directory.findChannel('acme-kakao'))?.consultationsUsed).toBe(1);
    expect(await store.billing.reserve(served('s2'))).toBe('charged');
  });

  it('keeps the count of a consultation another send relied on, when the send that reserved it is given back', async () => {
    await store.billing.setPlan('acme-kakao', 5);
    const served = { channelKey: 'acme-kakao', sessionId: 'race', userKey: 'u', day: '2026-11-21' };
    expect(await store.billing.reserve(served)).toBe('charged');
    // a second send of the same consultation, at the same time, finds it reserved and is accepted by the messenger
    expect(await store.billing.reserve(served)).toBe('free');
    await store.billing.keep(served);
    // the messenger refuses the first send: its release must not give back the count the second one used
    await store.billing.release(served);
    expect((await store.directory.findChannel('acme-kakao'))?.consultationsUsed).toBe(1);
    expect(await store.billing.reserve(served)).toBe('free');
  });

  it('counts a consultation whose reserving send was given back before another send relying on it was accepted', async () => {
    await store.billing.setPlan('acme-kakao', 5);
    const served = { channelKey: 'acme-kakao', sessionId: 'race-2', userKey: 'u', day: '2026-11-21' };
    expect(await store.billing.reserve(served)).toBe('charged');
    expect(await store.billing.reserve(served)).toBe('free');
    // the messenger refuses the reserving send first, then accepts the one that relied on its count
    await store.billing.release(served);
    expect((await store.directory.findChannel('acme-kakao'))?.consultationsUsed).toBe(0);
    await store.billing.keep(served);
    expect((await store.directory.findChannel('acme-kakao'))?.consultationsUsed).toBe(1);
    await store.billing.keep(served);
    await store.billing.release(served);
    expect((await store.directory.findChannel('acme-kakao'))?.consultationsUsed).toBe(1);
    expect(await store.billing.reserve(served)).toBe('free');
  });

  it('never charges past the plan under concurrent first sends', async () => {
    await store.billing.setPlan('acme-kakao', 5);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => store.billing.reserve({ channelKey: 'acme-kakao', sessionId: `s${i % 8}`, userKey: 'u', day: 'd' })),
    );
    expect(results.filter((r) => r === 'charged')).toHaveLength(5);
    expect((await store.directory.findChannel('acme-kakao'))?.consultationsUsed).toBe(5);
  });

  it('records sent bubbles and marks the sending item deleted once all of its bubbles are deleted', async () => {
    const [group] = await store.journal.append('acme-kakao', [
      {
        userKey: 'u1',
        sessionId: '100',
        kind: 'agent',
        text: 'two photos',
        timestampUnixMs: 1_000,
        serial: 'bw-a',
        bubbles: [
          { serial: 'bw-a', kind: 'image', text: 'caption', groupIndex: 0 },
          { serial: 'bw-b', kind: 'image', text: null, groupIndex: 1 },
        ],
      },
    ]);
    expect(await store.journal.findBubble('acme-kakao', 'bw-b')).toMatchObject({ journalSeq: group?.seq, groupIndex: 1, deletedAtMs: null, kind: 'image' });
    expect((await store.journal.listRecentBubbles('acme-kakao', 'u1', 1_000)).map((b) => b.serial)).toEqual(['bw-b', 'bw-a']);
    expect(await store.journal.listRecentBubbles('acme-kakao', 'u1', 1_001)).toEqual([]);

    const deleted = (serial: string) => ({ userKey: 'u1', sessionId: '100', kind: 'deleted' as const, text: 'deleted', timestampUnixMs: 2_000, serial });
    expect((await store.journal.markBubbleDeleted('acme-kakao', 'bw-a', deleted('bw-a')))?.kind).toBe('deleted');
    expect((await store.journal.findBySerial('acme-kakao', 'bw-a'))?.deleted).toBe(false);
    expect(await store.journal.markBubbleDeleted('acme-kakao', 'bw-a', deleted('bw-a'))).toBeUndefined();
    await store.journal.markBubbleDeleted('acme-kakao', 'bw-b', deleted('bw-b'));
    const messages = await store.journal.listMessages('acme-kakao', 'u1', 10);
    expect(messages.map((m) => [m.kind, m.serial, m.deleted])).toEqual([
      ['deleted', 'bw-b', false],
      ['deleted', 'bw-a', false],
      ['agent', 'bw-a', true],
    ]);
  });

  it('claims an idempotency key once and replays its answer; another body conflicts', async () => {
    expect(await store.idempotency.claim('k1', 'idem-1', 'hash-a', 1, 0, ME)).toEqual({ kind: 'new' });
    expect(await store.idempotency.claim('k1', 'idem-1', 'hash-a', 2, 0, ME)).toEqual({ kind: 'in_progress' });
    await store.idempotency.complete('k1', 'idem-1', 1, 200, { ok: true, serial: 's' });
    expect(await store.idempotency.claim('k1', 'idem-1', 'hash-a', 3, 0, ME)).toEqual({ kind: 'replay', status: 200, body: { ok: true, serial: 's' } });
    expect(await store.idempotency.claim('k1', 'idem-1', 'hash-b', 3, 0, ME)).toEqual({ kind: 'conflict' });
    expect(await store.idempotency.claim('k2', 'idem-1', 'hash-b', 3, 0, ME)).toEqual({ kind: 'new' });
    await store.idempotency.release('k2', 'idem-1', 3);
    expect(await store.idempotency.claim('k2', 'idem-1', 'hash-c', 4, 0, ME)).toEqual({ kind: 'new' });
    await store.idempotency.forgetOlderThan(4);
    expect(await store.idempotency.claim('k1', 'idem-1', 'hash-b', 5, 0, ME)).toEqual({ kind: 'new' });
    // a claim past its keeping counts as forgotten before any sweep
    await store.idempotency.complete('k1', 'idem-1', 5, 200, { ok: true, serial: 't' });
    expect(await store.idempotency.claim('k1', 'idem-1', 'hash-b', 6, 5, ME)).toEqual({ kind: 'replay', status: 200, body: { ok: true, serial: 't' } });
    expect(await store.idempotency.claim('k1', 'idem-1', 'hash-d', 7, 6, ME)).toEqual({ kind: 'new' });
  });

  it('hands the serials of a claim whose outcome is unknown to one retry, which then owns the claim', async () => {
    expect(await store.idempotency.claim('k9', 'idem-u', 'hash-a', 10, 0, ME)).toEqual({ kind: 'new' });
    await store.idempotency.keepUncertain('k9', 'idem-u', 10, { serials: ['bw-1', 'bw-2'], sessionId: '77' });
    expect(await store.idempotency.claim('k9', 'idem-u', 'hash-b', 11, 0, ME)).toEqual({ kind: 'conflict' });
    expect(await store.idempotency.claim('k9', 'idem-u', 'hash-a', 12, 0, ME)).toEqual({ kind: 'resume', attempt: { serials: ['bw-1', 'bw-2'], sessionId: '77' } });
    expect(await store.idempotency.claim('k9', 'idem-u', 'hash-a', 13, 0, ME)).toEqual({ kind: 'in_progress' });
    // the retry's claim is the one made at 12: the first attempt's time no longer names it
    await store.idempotency.complete('k9', 'idem-u', 10, 200, { ok: true, serial: 'stale' });
    await store.idempotency.complete('k9', 'idem-u', 12, 200, { ok: true, serial: 'bw-1' });
    expect(await store.idempotency.claim('k9', 'idem-u', 'hash-a', 14, 0, ME)).toEqual({ kind: 'replay', status: 200, body: { ok: true, serial: 'bw-1' } });
  });

  it('takes over an unanswered claim of another holder once it counts as cut off, with the serials its attempt noted', async () => {
    const other = { id: 'instance-b', othersCutOffBeforeMs: 0 };
    expect(await store.idempotency.claim('k5', 'idem-5', 'hash-a', 100, 0, other)).toEqual({ kind: 'new' });
    await store.idempotency.noteAttempt('k5', 'idem-5', 100, { serials: ['bw-9'], sessionId: '42' });
    // its holder may still be answering it: claims made since the cut-off are left alone, and so are one's own
    expect(await store.idempotency.claim('k5', 'idem-5', 'hash-a', 150, 0, { id: 'instance-a', othersCutOffBeforeMs: 100 })).toEqual({ kind: 'in_progress' });
    expect(await store.idempotency.claim('k5', 'idem-5', 'hash-a', 150, 0, { id: 'instance-b', othersCutOffBeforeMs: 1_000 })).toEqual({ kind: 'in_progress' });
    expect(await store.idempotency.claim('k5', 'idem-5', 'hash-b', 150, 0, { id: 'instance-a', othersCutOffBeforeMs: 1_000 })).toEqual({ kind: 'conflict' });
    const takeOver = { id: 'instance-a', othersCutOffBeforeMs: 101 };
    expect(await store.idempotency.claim('k5', 'idem-5', 'hash-a', 200, 0, takeOver)).toEqual({ kind: 'resume', attempt: { serials: ['bw-9'], sessionId: '42' } });
    // now the claim made at 200 is instance-a's: a retry meanwhile waits, and the cut-off holder's late answer is dropped
    expect(await store.idempotency.claim('k5', 'idem-5', 'hash-a', 201, 0, { id: 'instance-a', othersCutOffBeforeMs: 10_000 })).toEqual({ kind: 'in_progress' });
    await store.idempotency.complete('k5', 'idem-5', 100, 200, { ok: true, serial: 'late' });
    await store.idempotency.complete('k5', 'idem-5', 200, 200, { ok: true, serial: 'bw-9' });
    expect(await store.idempotency.claim('k5', 'idem-5', 'hash-a', 202, 0, takeOver)).toEqual({ kind: 'replay', status: 200, body: { ok: true, serial: 'bw-9' } });
  });

  it('takes over a cut-off claim whose attempt handed out no serial as a new one, and keeps the serials of a resumed one', async () => {
    expect(await store.idempotency.claim('k6', 'idem-6', 'hash-a', 100, 0, { id: 'gone', othersCutOffBeforeMs: 0 })).toEqual({ kind: 'new' });
    expect(await store.idempotency.claim('k6', 'idem-6', 'hash-a', 200, 0, { id: 'next', othersCutOffBeforeMs: 150 })).toEqual({ kind: 'new' });

    expect(await store.idempotency.claim('k7', 'idem-7', 'hash-a', 100, 0, { id: 'gone', othersCutOffBeforeMs: 0 })).toEqual({ kind: 'new' });
    await store.idempotency.noteAttempt('k7', 'idem-7', 100, { serials: ['bw-1'], sessionId: null });
    expect(await store.idempotency.claim('k7', 'idem-7', 'hash-a', 200, 0, { id: 'next', othersCutOffBeforeMs: 150 })).toEqual({ kind: 'resume', attempt: { serials: ['bw-1'], sessionId: null } });
    // the resuming attempt is cut off in turn before it noted anything: the serials stay for the next one
    expect(await store.idempotency.claim('k7', 'idem-7', 'hash-a', 300, 0, { id: 'third', othersCutOffBeforeMs: 250 })).toEqual({ kind: 'resume', attempt: { serials: ['bw-1'], sessionId: null } });
    // a note of a claim taken over since is dropped
    await store.idempotency.noteAttempt('k7', 'idem-7', 200, { serials: ['bw-1', 'bw-stale'], sessionId: null });
    expect(await store.idempotency.claim('k7', 'idem-7', 'hash-a', 400, 0, { id: 'fourth', othersCutOffBeforeMs: 350 })).toEqual({ kind: 'resume', attempt: { serials: ['bw-1'], sessionId: null } });
  });

  it('leaves alone a claim its holder renewed since the cut-off, and takes it over once the renewals stop', async () => {
    expect(await store.idempotency.claim('k10', 'held', 'hash-a', 1_000, 0, { id: 'busy', othersCutOffBeforeMs: 0 })).toEqual({ kind: 'new' });
    await store.idempotency.renew([{ keyId: 'k10', idemKey: 'held', claimedMs: 1_000 }], 5_000);
    // made before the cut-off, but renewed after it: its holder still answers it
    expect(await store.idempotency.claim('k10', 'held', 'hash-a', 6_000, 0, { id: 'other', othersCutOffBeforeMs: 4_000 })).toEqual({ kind: 'in_progress' });
    // a renewal of a claim made at another time changes nothing
    await store.idempotency.renew([{ keyId: 'k10', idemKey: 'held', claimedMs: 999 }], 9_000);
    expect(await store.idempotency.claim('k10', 'held', 'hash-a', 9_000, 0, { id: 'other', othersCutOffBeforeMs: 6_000 })).toEqual({ kind: 'new' });
  });

  it('never takes over an unanswered claim kept without a holder (made before holders were kept) unless its outcome was left uncertain', async () => {
    expect(await store.idempotency.claim('k8', 'legacy', 'hash-a', 1_000, 0, ME)).toEqual({ kind: 'new' });
    expect(await store.idempotency.claim('k8', 'legacy-u', 'hash-a', 1_000, 0, ME)).toEqual({ kind: 'new' });
    await store.idempotency.keepUncertain('k8', 'legacy-u', 1_000, { serials: ['bw-3'], sessionId: null });
    await execInTestDatabase(db, ["update idempotency_keys set holder = null where key_id = 'k8'"]);
    const anyone = { id: 'new-run', othersCutOffBeforeMs: Number.POSITIVE_INFINITY };
    expect(await store.idempotency.claim('k8', 'legacy', 'hash-a', 2_000, 0, anyone)).toEqual({ kind: 'in_progress' });
    expect(await store.idempotency.claim('k8', 'legacy-u', 'hash-a', 2_000, 0, anyone)).toEqual({ kind: 'resume', attempt: { serials: ['bw-3'], sessionId: null } });
  });

  it("leaves alone a newer claim of an idempotency key when the forgotten claim's request ends", async () => {
    expect(await store.idempotency.claim('k3', 'idem-3', 'hash-a', 10, 0, ME)).toEqual({ kind: 'new' });
    // its request is still under way when its keeping ends: a retry claims the key anew
    expect(await store.idempotency.claim('k3', 'idem-3', 'hash-a', 20, 15, ME)).toEqual({ kind: 'new' });
    await store.idempotency.complete('k3', 'idem-3', 10, 200, { ok: true, serial: 'first' });
    await store.idempotency.release('k3', 'idem-3', 10);
    expect(await store.idempotency.claim('k3', 'idem-3', 'hash-a', 21, 15, ME)).toEqual({ kind: 'in_progress' });
    await store.idempotency.complete('k3', 'idem-3', 20, 200, { ok: true, serial: 'second' });
    expect(await store.idempotency.claim('k3', 'idem-3', 'hash-a', 22, 15, ME)).toEqual({ kind: 'replay', status: 200, body: { ok: true, serial: 'second' } });
  });

  it('remembers upload URLs with their kind and image type', async () => {
    const upload = { url: 'https://files/x.png', channelKey: 'acme-kakao', kind: 'image' as const, imageType: 'plain' as const, name: 'x.png', size: 12, createdMs: 5 };
    await store.uploads.save(upload);
    await store.uploads.save({ ...upload, imageType: 'rich' });
    expect(await store.uploads.find('https://files/x.png')).toEqual(upload);
    expect(await store.uploads.find('https://files/y.png')).toBeUndefined();
  });

  it("gives the signals to try now: due customers first with at most so many each, only the head of a customer that waits", async () => {
    const T0 = 1_700_000_000_000;
    await store.settings.setWebhookUrl('acme-kakao', 'https://hooks.example.com/in');
    const message = (userKey: string, at: number) => ({ userKey, sessionId: '1', kind: 'message' as const, text: 'x', timestampUnixMs: at });
    await store.journal.append('acme-kakao', [message('stuck', 1), message('stuck', 2), message('stuck', 3), message('stuck', 4), message('newbie', 5), message('stuck', 6)]);
    const of = (signals: Array<{ userKey: string; seq: number }>) => signals.map((s) => [s.userKey, s.seq]);
    expect(of(await store.signals.pending('acme-kakao', 3))).toEqual([['stuck', 1], ['stuck', 2], ['stuck', 3]]);
    expect(of(await store.signals.pending('acme-kakao', 3, { perCustomer: 2 }))).toEqual([['stuck', 1], ['stuck', 2], ['newbie', 5]]);
    // stuck's oldest signal waits out its back-off: only that one is given, after the customers that are due
    await store.signals.markFailed([{ key: { channelKey: 'acme-kakao', seq: 1, part: 0 }, nextAttemptMs: T0 + 60_000, error: 'HTTP 500', dead: false }]);
    expect(of(await store.signals.pending('acme-kakao', 10, { perCustomer: 10, nowMs: T0 }))).toEqual([['newbie', 5], ['stuck', 1]]);
    expect(of(await store.signals.pending('acme-kakao', 1, { perCustomer: 10, nowMs: T0 }))).toEqual([['newbie', 5]]);
    expect(of(await store.signals.pending('acme-kakao', 10, { perCustomer: 2, nowMs: T0 + 60_000 }))).toEqual([['stuck', 1], ['stuck', 2], ['newbie', 5]]);
  });

  it('stops what waited for a removed webhook, and only while the channel has none', async () => {
    await store.settings.setWebhookUrl('acme-kakao', 'https://hooks.example.com/in');
    const message = (at: number) => ({ userKey: 'u1', sessionId: '1', kind: 'message' as const, text: 'x', timestampUnixMs: at });
    await store.journal.append('acme-kakao', [message(1), message(2)]);
    await store.signals.markFailed([{ key: { channelKey: 'acme-kakao', seq: 1, part: 0 }, nextAttemptMs: 99, error: 'HTTP 500', dead: false }]);
    // set again before the stop ran: what was written for it is kept
    expect(await store.signals.stopPendingWithoutWebhook('acme-kakao')).toBe(0);
    await store.settings.setWebhookUrl('acme-kakao', null);
    expect(await store.signals.stopPendingWithoutWebhook('acme-kakao')).toBe(2);
    expect(await store.signals.channelsWithPending()).toEqual([]);
    expect((await store.signals.listAfter('acme-kakao', { seq: 0, part: -1 }, 10)).map((s) => [s.seq, s.state])).toEqual([
      [1, 'none'],
      [2, 'none'],
    ]);
    // an attempt that was under way when it was removed leaves it stopped
    await store.signals.markFailed([{ key: { channelKey: 'acme-kakao', seq: 2, part: 0 }, nextAttemptMs: 99, error: 'HTTP 500', dead: false }]);
    expect(await store.signals.channelsWithPending()).toEqual([]);
  });

  it("writes each item's signals with it: pending with a webhook, none without, in seq order", async () => {
    expect((await store.settings.get('acme-kakao')).webhookSecret).toMatch(/^whsec_/);
    await store.journal.append('acme-kakao', [{ userKey: 'u1', sessionId: '1', kind: 'message', text: 'before the webhook', timestampUnixMs: 1 }]);
    await store.settings.setWebhookUrl('acme-kakao', 'https://hooks.example.com/in');
    await store.journal.append('acme-kakao', [{ userKey: 'u1', sessionId: '1', kind: 'agent', text: 'hi', timestampUnixMs: 2, serial: 'bw-9' }]);

    const all = await store.signals.listAfter('acme-kakao', { seq: 0, part: -1 }, 10);
    expect(all.map((s) => [s.seq, s.part, s.state, s.payload.kind, s.payload.phase ?? null])).toEqual([
      [1, 0, 'none', 'message', null],
      [2, 0, 'pending', 'agent', 'accepted'],
      [2, 1, 'pending', 'agent', null],
    ]);
    expect(JSON.stringify(all.map((s) => s.payload))).not.toContain('before the webhook');
    expect((await store.signals.listAfter('acme-kakao', { seq: 2, part: 0 }, 10)).map((s) => s.part)).toEqual([1]);
    expect(await store.signals.channelsWithPending()).toEqual(['acme-kakao']);
    expect([await store.signals.hasPendingBefore('acme-kakao', 'u1', 2), await store.signals.hasPendingBefore('acme-kakao', 'u1', 3)]).toEqual([false, true]);
    expect(await store.signals.hasPendingBefore('acme-kakao', 'u2', 3)).toBe(false);

    const [first, second] = await store.signals.pending('acme-kakao', 10);
    await store.signals.markFailed([{ key: { channelKey: 'acme-kakao', seq: 2, part: 0 }, nextAttemptMs: 10_000, error: 'HTTP 500', dead: false }]);
    await store.signals.expedite('acme-kakao', 5_000);
    expect((await store.signals.pending('acme-kakao', 10))[0]).toMatchObject({ attempts: 1, nextAttemptMs: 5_000 });
    await store.signals.markDelivered([
      { channelKey: 'acme-kakao', seq: first?.seq ?? 0, part: first?.part ?? 0 },
      { channelKey: 'acme-kakao', seq: second?.seq ?? 0, part: second?.part ?? 0 },
    ]);
    expect(await store.signals.pending('acme-kakao', 10)).toEqual([]);
    expect(await store.signals.channelsWithPending()).toEqual([]);
    expect(await store.signals.hasPendingBefore('acme-kakao', 'u1', 3)).toBe(false);
  });

  it('lets one delete at a time claim a bubble, until it releases it or its claim lapses', async () => {
    expect(await store.bubbleDeleteClaims.claim('acme-kakao', 'bw-claimed', 1_000, 31_000)).toBe(true);
    expect(await store.bubbleDeleteClaims.claim('acme-kakao', 'bw-claimed', 2_000, 32_000)).toBe(false);
    expect(await store.bubbleDeleteClaims.claim('acme-kakao', 'bw-other', 2_000, 32_000)).toBe(true);
    await store.bubbleDeleteClaims.release('acme-kakao', 'bw-claimed');
    expect(await store.bubbleDeleteClaims.claim('acme-kakao', 'bw-claimed', 3_000, 33_000)).toBe(true);
    // an instance that died mid-delete holds it only until its claim lapses
    expect(await store.bubbleDeleteClaims.claim('acme-kakao', 'bw-claimed', 32_999, 62_999)).toBe(false);
    expect(await store.bubbleDeleteClaims.claim('acme-kakao', 'bw-claimed', 33_000, 63_000)).toBe(true);
    const claims = await Promise.all([0, 1, 2, 3].map(() => store.bubbleDeleteClaims.claim('acme-kakao', 'bw-raced', 5_000, 35_000)));
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it("gives a channel's delivery lease to one owner at a time", async () => {
    expect(await store.signals.claimChannel('acme-kakao', 'a', 1_000, 31_000)).toBe(true);
    expect(await store.signals.claimChannel('acme-kakao', 'b', 2_000, 32_000)).toBe(false);
    expect(await store.signals.claimChannel('acme-kakao', 'a', 3_000, 33_000)).toBe(true);
    expect(await store.signals.claimChannel('acme-kakao', 'b', 34_000, 64_000)).toBe(true);
    await store.signals.releaseChannel('acme-kakao', 'b');
    expect(await store.signals.claimChannel('acme-kakao', 'a', 35_000, 65_000)).toBe(true);
  });

  it('reserves a seq without a journal item', async () => {
    await store.journal.append('acme-kakao', [{ userKey: 'u1', sessionId: '1', kind: 'message', text: 'x', timestampUnixMs: 1 }]);
    expect(await store.journal.reserveSeq('acme-kakao')).toBe(2);
    expect((await store.journal.append('acme-kakao', [{ userKey: 'u1', sessionId: '1', kind: 'message', text: 'y', timestampUnixMs: 2 }]))[0]?.seq).toBe(3);
  });

  it('remembers an end the service asked for until the next consultation', async () => {
    await store.journal.append('acme-kakao', [{ userKey: 'u1', sessionId: '100', kind: 'reference', text: '', timestampUnixMs: 1 }]);
    await store.journal.markEndRequested('acme-kakao', 'u1', '100');
    expect((await store.journal.getRoom('acme-kakao', 'u1'))?.endRequestedSession).toBe('100');
    await store.journal.append('acme-kakao', [{ userKey: 'u1', sessionId: '101', kind: 'reference', text: '', timestampUnixMs: 2 }]);
    expect((await store.journal.getRoom('acme-kakao', 'u1'))?.endRequestedSession).toBeNull();
  });
});

describe('Store on PostgreSQL with several instances', () => {
  it('lets them open and migrate a new database at the same time', async () => {
    const fresh = await testDatabase('postgres');
    try {
      const stores = await Promise.all([1, 2, 3].map(() => Store.open({ dataDir: fresh.dataDir, databaseUrl: fresh.databaseUrl })));
      expect(stores.map((s) => s.dialect)).toEqual(['postgres', 'postgres', 'postgres']);
      await Promise.all(stores.map((s) => s.close()));
    } finally {
      await fresh.drop();
    }
  });

  it.each([
    ['no serial noted', undefined, 'new'],
    ['a serial noted', { serials: ['bw-1'], sessionId: '7' }, 'resume'],
  ] as const)('lets one of two instances retrying at once take over a cut-off claim (%s); the other waits', async (_, noted, takenAs) => {
    const fresh = await testDatabase('postgres');
    try {
      const [a, b] = await Promise.all([1, 2].map(() => Store.open({ dataDir: fresh.dataDir, databaseUrl: fresh.databaseUrl })));
      if (!a || !b) throw new Error('no store');
      const cutOff = { othersCutOffBeforeMs: 5_000 };
      for (let i = 0; i < 30; i++) {
        expect(await a.idempotency.claim('k4', `race-${i}`, 'hash-a', 1_000, 0, { id: 'gone', othersCutOffBeforeMs: 0 })).toEqual({ kind: 'new' });
        if (noted) await a.idempotency.noteAttempt('k4', `race-${i}`, 1_000, { serials: [...noted.serials], sessionId: noted.sessionId });
        const kinds = await Promise.all([
          a.idempotency.claim('k4', `race-${i}`, 'hash-a', 10_000, 0, { id: 'instance-a', ...cutOff }),
          b.idempotency.claim('k4', `race-${i}`, 'hash-a', 10_001, 0, { id: 'instance-b', ...cutOff }),
        ]);
        expect(kinds.map((k) => k.kind).sort()).toEqual([takenAs, 'in_progress'].sort());
      }
      await Promise.all([a.close(), b.close()]);
    } finally {
      await fresh.drop();
    }
  });

  it('journals a callback repeated to every instance at the same moment once, each answering its seq', async () => {
    const fresh = await testDatabase('postgres');
    try {
      const stores = await Promise.all([1, 2, 3].map(() => Store.open({ dataDir: fresh.dataDir, databaseUrl: fresh.databaseUrl })));
      const [first] = stores;
      if (!first) throw new Error('no store');
      await first.directory.upsertBrand({ id: 'acme', name: 'Acme' });
      await first.directory.upsertChannel({ key: 'acme-kakao', brandId: 'acme', name: 'Acme Kakao', type: 'kakao', senderKey: 'sk-1', chatbotBuilder: false, planConsultations: 10 });
      await first.journal.append('acme-kakao', [{ userKey: 'u1', sessionId: '7', kind: 'reference', text: 'Consultation started', timestampUnixMs: 1 }]);
      const meta = { messengerSerial: '900001' };
      const item = { userKey: 'u1', sessionId: '7', kind: 'message' as const, text: 'once', timestampUnixMs: 2, meta };
      for (let round = 0; round < 5; round++) {
        const results = await Promise.all(stores.map((s) => s.journal.appendUnlessRecent('acme-kakao', { ...item, meta: { messengerSerial: `9000${round}` } }, { kind: 'message', sessionId: '7', meta: { messengerSerial: `9000${round}` } }, 100)));
        expect(results.filter((r) => r.item !== undefined)).toHaveLength(1);
        const seqs = results.map((r) => r.item?.seq ?? r.earlierSeq);
        expect(new Set(seqs).size).toBe(1);
      }
      expect((await first.journal.listMessages('acme-kakao', 'u1', 100)).filter((i) => i.kind === 'message')).toHaveLength(5);
      await Promise.all(stores.map((s) => s.close()));
    } finally {
      await fresh.drop();
    }
  });
});
