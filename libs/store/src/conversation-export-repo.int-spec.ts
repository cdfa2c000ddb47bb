import { type NewJournalItem, type Store, openStore } from './index';
import { TEST_STORE_MODES, type TestDatabase, storeModeName, testDatabase } from './testing';

const item = (userKey: string, sessionId: string, kind: NewJournalItem['kind'], text: string, timestampUnixMs: number, extra: Partial<NewJournalItem> = {}): NewJournalItem => ({
  userKey,
  sessionId,
  kind,
  text,
  timestampUnixMs,
  ...extra,
});

describe.each(TEST_STORE_MODES.map((mode) => [storeModeName(mode), mode] as const))('ConversationExportRepo on %s', (_name, { dialect, thread }) => {
  let db: TestDatabase;
  let store: Store;

  beforeAll(async () => {
    db = await testDatabase(dialect);
    store = await openStore({ dataDir: db.dataDir, databaseUrl: db.databaseUrl, now: () => 1_700_000_000_000, thread });
    await store.directory.upsertBrand({ id: 'acme', name: 'Acme' });
    for (const [key, senderKey] of [
      ['acme-kakao', 'a'],
      ['acme-naver', 'b'],
      ['acme-empty', 'c'],
    ] as const) {
      await store.directory.upsertChannel({ key, brandId: 'acme', name: key, type: 'kakao', chatbotBuilder: false, planConsultations: 1000, senderKey: senderKey.repeat(40) });
    }
    // interleaved as real traffic is: three consultations of two customers, one ended, one by a bot
    await store.journal.append('acme-kakao', [
      item('u1', 's-30', 'reference', 'Consultation started', 1000, { meta: { reference: {} } }),
      item('u2', 's-10', 'reference', 'Consultation started', 1001),
      item('u1', 's-30', 'message', 'where is my parcel?', 1002),
      item('u2', 's-10', 'message', '환불 요청드립니다', 1003),
      item('u1', 's-30', 'agent', 'on its way', 1004, { serial: 'bw-1-a' }),
      item('u2', 's-10', 'agent', 'Refund started', 1005, { serial: 'bw-2-a', byBot: true }),
      item('u1', 's-30', 'ended', 'Consultation ended by the customer', 1006),
      item('u1', 's-20', 'reference', 'Consultation started', 1007),
      item('u1', 's-20', 'message', '[photo] https://talk-cdn.sandbox.invalid/p/1.jpg front', 1008),
    ]);
    await store.journal.append('acme-naver', [item('u9', 's-10', 'reference', 'Consultation started', 2000), item('u9', 's-10', 'message', 'naver line', 2001)]);
  });

  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  it('reads whole conversations in convId order, each with its lines oldest first', async () => {
    const page = await store.conversationExport.page('acme-kakao', { max: 10 });
    expect(page.more).toBe(false);
    expect(page.conversations.map((c) => [c.conversation.convId, c.conversation.userKey, c.conversation.ended, c.conversation.count])).toEqual([
      ['s-10', 'u2', false, 3],
      ['s-20', 'u1', false, 2],
      ['s-30', 'u1', true, 4],
    ]);
    const [s10, , s30] = page.conversations;
    expect(s10?.lines).toEqual([
      { seq: 2, kind: 'reference', byBot: false, text: 'Consultation started', timestampUnixMs: 1001, deleted: false },
      { seq: 4, kind: 'message', byBot: false, text: '환불 요청드립니다', timestampUnixMs: 1003, deleted: false },
      { seq: 6, kind: 'agent', byBot: true, text: 'Refund started', timestampUnixMs: 1005, deleted: false },
    ]);
    expect(s30?.lines.map((l) => [l.seq, l.kind])).toEqual([
      [1, 'reference'],
      [3, 'message'],
      [5, 'agent'],
      [7, 'ended'],
    ]);
    expect(s30?.conversation.lastSeq).toBe(7);
  });

  it('gives the same lines as reading each conversation alone', async () => {
    const page = await store.conversationExport.page('acme-kakao', { max: 10 });
    for (const { conversation, lines } of page.conversations) {
      const alone = await store.journal.getConversation('acme-kakao', conversation.convId);
      expect(lines.map((l) => [l.seq, l.kind, l.text, l.timestampUnixMs, l.byBot])).toEqual(alone?.items.map((i) => [i.seq, i.kind, i.text, i.timestampUnixMs, i.byBot]));
    }
  });

  it('pages by the last convId and says whether more follow', async () => {
    const first = await store.conversationExport.page('acme-kakao', { max: 2 });
    expect(first.conversations.map((c) => c.conversation.convId)).toEqual(['s-10', 's-20']);
    expect(first.more).toBe(true);
    const second = await store.conversationExport.page('acme-kakao', { max: 2, afterConvId: 's-20' });
    expect(second.conversations.map((c) => c.conversation.convId)).toEqual(['s-30']);
    expect(second.more).toBe(false);
    expect(await store.conversationExport.page('acme-kakao', { max: 2, afterConvId: 's-30' })).toEqual({ conversations: [], more: false });
    const exact = await store.conversationExport.page('acme-kakao', { max: 3 });
    expect(exact.more).toBe(false);
  });

  it("keeps to the channel: another channel's conversation with the same session id is not mixed in", async () => {
    const naver = await store.conversationExport.page('acme-naver', { max: 10 });
    expect(naver.conversations).toHaveLength(1);
    expect(naver.conversations[0]?.lines.map((l) => l.text)).toEqual(['Consultation started', 'naver line']);
    expect(await store.conversationExport.page('acme-empty', { max: 10 })).toEqual({ conversations: [], more: false });
    expect(await store.conversationExport.page('no-such-channel', { max: 10 })).toEqual({ conversations: [], more: false });
  });

  it('walks a larger channel page by page, every conversation once and whole', async () => {
    const items: NewJournalItem[] = [];
    for (let c = 0; c < 250; c++) {
      const session = `bulk-${String(c).padStart(4, '0')}`;
      items.push(item(`bulk-user-${c % 40}`, session, 'reference', 'Consultation started', 5000 + c * 10));
      items.push(item(`bulk-user-${c % 40}`, session, 'message', `question ${c}`, 5001 + c * 10));
    }
    await store.journal.append('acme-empty', items);
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    for (;;) {
      const page = await store.conversationExport.page('acme-empty', { max: 100, ...(after === undefined ? {} : { afterConvId: after }) });
      pages += 1;
      for (const c of page.conversations) {
        expect(c.lines.map((l) => l.text)).toEqual(['Consultation started', `question ${Number(c.conversation.convId.slice(5))}`]);
        seen.push(c.conversation.convId);
      }
      after = page.conversations.at(-1)?.conversation.convId;
      if (!page.more) break;
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(250);
    expect(new Set(seen).size).toBe(250);
  });
});
