import { Store } from './index';
import { TEST_DIALECTS, type TestDatabase, testDatabase } from './testing';

describe.each(TEST_DIALECTS)('journal writes on %s', (dialect) => {
  let db: TestDatabase;
  let store: Store;
  let other: Store;

  beforeEach(async () => {
    db = await testDatabase(dialect);
    store = await Store.open({ dataDir: db.dataDir, databaseUrl: db.databaseUrl });
    await store.directory.upsertBrand({ id: 'acme', name: 'Acme' });
    await store.directory.upsertChannel({ key: 'acme-kakao', brandId: 'acme', name: 'Acme Kakao', type: 'kakao', chatbotBuilder: true, planConsultations: 10, senderKey: 'a'.repeat(40) });
    // a second instance on the same database, as another process sharing it would be; an SQLite data folder
    // has one service only (a second store on it is refused), so there "the other" is the same store
    other = dialect === 'sqlite' ? store : await Store.open({ dataDir: db.dataDir, databaseUrl: db.databaseUrl });
  });

  afterEach(async () => {
    if (other !== store) await other.close();
    await store.close();
    await db.drop();
  });

  const agentItem = (n: number) => ({ userKey: 'u1', sessionId: 's1', kind: 'agent' as const, text: `t${n}`, timestampUnixMs: n, serial: `bw-${n}` });
  const states = async () => (await store.signals.listAfter('acme-kakao', { seq: 0, part: -1 }, 100)).map((s) => [s.seq, s.part, s.state]);

  it("writes each signal pending or not by the channel's webhook at the time of the write, whoever changed it", async () => {
    await store.journal.append('acme-kakao', [agentItem(1)]);
    await other.settings.setWebhookUrl('acme-kakao', 'https://hooks.example.com/in');
    await store.journal.append('acme-kakao', [agentItem(2)]);
    await other.settings.setWebhookUrl('acme-kakao', '');
    await store.journal.append('acme-kakao', [agentItem(3)]);
    await store.settings.setWebhookUrl('acme-kakao', 'https://hooks.example.com/again');
    await store.journal.append('acme-kakao', [agentItem(4)]);
    await other.settings.setWebhookUrl('acme-kakao', null);
    await store.journal.append('acme-kakao', [agentItem(5)]);

    expect(await states()).toEqual([
      [1, 0, 'none'],
      [1, 1, 'none'],
      [2, 0, 'pending'],
      [2, 1, 'pending'],
      [3, 0, 'none'],
      [3, 1, 'none'],
      [4, 0, 'pending'],
      [4, 1, 'pending'],
      [5, 0, 'none'],
      [5, 1, 'none'],
    ]);
  });

  it('journals several items with several bubbles in one write, and concurrent writes of both instances in turn', async () => {
    const [first, second] = await store.journal.append('acme-kakao', [
      { userKey: 'u1', sessionId: 's1', kind: 'reference', text: 'Consultation started', timestampUnixMs: 10 },
      {
        userKey: 'u1',
        sessionId: 's1',
        kind: 'agent',
        text: '[photo] x',
        timestampUnixMs: 11,
        serial: 'bw-a',
        bubbles: [
          { serial: 'bw-a', kind: 'image', text: null, groupIndex: 0 },
          { serial: 'bw-b', kind: 'text', text: 'caption', groupIndex: 1 },
        ],
      },
    ]);
    expect([first?.seq, second?.seq]).toEqual([1, 2]);
    expect((await store.journal.findBubble('acme-kakao', 'bw-b'))?.journalSeq).toBe(2);

    await Promise.all([store.journal.append('acme-kakao', [agentItem(20)]), other.journal.append('acme-kakao', [agentItem(21)]), store.journal.append('acme-kakao', [agentItem(22)])]);
    expect((await store.journal.listMessages('acme-kakao', 'u1', 10)).map((m) => m.seq)).toEqual([5, 4, 3, 2, 1]);
    expect(await store.journal.getRoom('acme-kakao', 'u1')).toMatchObject({ sessionId: 's1', state: 'in_progress', lastSeq: 5 });
    expect(await store.journal.findConversation('acme-kakao', 's1')).toMatchObject({ firstSeq: 1, lastSeq: 5, count: 5, ended: false });
  });

  it('keeps two customers given the same session id apart: a conversation each, each ended on its own', async () => {
    const item = (userKey: string, kind: 'reference' | 'message' | 'ended', text: string, ts: number) => ({ userKey, sessionId: '1000001', kind, text, timestampUnixMs: ts });
    await store.journal.append('acme-kakao', [item('ann', 'reference', 'Consultation started', 1), item('ann', 'message', 'from ann', 2)]);
    await store.journal.append('acme-kakao', [item('bob', 'reference', 'Consultation started', 3), item('bob', 'message', 'from bob', 4)]);
    expect(await store.journal.appendSessionEnd('acme-kakao', item('ann', 'ended', 'Consultation ended', 5))).toMatchObject({ seq: 5 });
    expect(await store.journal.appendSessionEnd('acme-kakao', item('bob', 'ended', 'Consultation ended', 6))).toMatchObject({ seq: 6 });
    expect(await store.journal.appendSessionEnd('acme-kakao', item('bob', 'ended', 'Consultation ended', 7))).toBeUndefined();

    const conversations = await store.journal.listConversations('acme-kakao', { max: 10 });
    expect(conversations.map((c) => [c.userKey, c.sessionId, c.count, c.ended])).toEqual([
      ['bob', '1000001', 3, true],
      ['ann', '1000001', 3, true],
    ]);
    const [bob, ann] = conversations;
    expect(ann?.convId).toBe('1000001');
    expect(bob?.convId).toMatch(/^1000001-u[0-9a-f]{12}$/);
    expect((await store.journal.getConversation('acme-kakao', String(ann?.convId)))?.items.map((i) => i.text)).toEqual(['Consultation started', 'from ann', 'Consultation ended']);
    expect((await store.journal.getConversation('acme-kakao', String(bob?.convId)))?.items.map((i) => i.text)).toEqual(['Consultation started', 'from bob', 'Consultation ended']);
    expect((await store.journal.findCustomerConversation('acme-kakao', 'bob', '1000001'))?.convId).toBe(bob?.convId);
    const exported = await store.conversationExport.page('acme-kakao', { max: 10 });
    expect(exported.conversations.map((c) => [c.conversation.userKey, c.lines.map((l) => l.text)])).toEqual([
      ['ann', ['Consultation started', 'from ann', 'Consultation ended']],
      ['bob', ['Consultation started', 'from bob', 'Consultation ended']],
    ]);
  });

  it("takes a customer's message of another session, while no consultation is in progress, as the start of that one", async () => {
    const item = (sessionId: string, kind: 'reference' | 'message' | 'ended' | 'agent', text: string, ts: number) => ({ userKey: 'cy', sessionId, kind, text, timestampUnixMs: ts });
    const room = async () => {
      const r = await store.journal.getRoom('acme-kakao', 'cy');
      return [r?.sessionId, r?.state];
    };
    await store.journal.append('acme-kakao', [item('2001', 'reference', 'Consultation started', 1), item('2001', 'message', 'hi', 2)]);
    await store.journal.appendSessionEnd('acme-kakao', item('2001', 'ended', 'Consultation ended', 3));
    // the start of 2002 was not reported (or not yet): its first message is
    await store.journal.append('acme-kakao', [item('2002', 'message', 'me again', 4)]);
    expect(await room()).toEqual(['2002', 'in_progress']);
    // a message of another session while one is in progress changes nothing: it may come late from an earlier one
    await store.journal.append('acme-kakao', [item('2001', 'message', 'late', 5)]);
    expect(await room()).toEqual(['2002', 'in_progress']);
    // the start reported late is journaled, and keeps the room as it is
    await store.journal.append('acme-kakao', [item('2002', 'reference', 'Consultation started', 6)]);
    expect(await room()).toEqual(['2002', 'in_progress']);
    // once 2002 has ended, a message of 2001 coming late does not open it again
    await store.journal.appendSessionEnd('acme-kakao', item('2002', 'ended', 'Consultation ended', 7));
    await store.journal.append('acme-kakao', [item('2001', 'message', 'later still', 8)]);
    expect(await room()).toEqual(['2002', 'ended']);
  });

  it("gives a room whose session was not known (an agent's send came first) the session of the customer's next message", async () => {
    await store.journal.append('acme-kakao', [{ userKey: 'dee', sessionId: '', kind: 'agent', text: 'hello?', timestampUnixMs: 1, serial: 'bw-dee' }]);
    await store.journal.append('acme-kakao', [{ userKey: 'dee', sessionId: '3001', kind: 'message', text: 'hi', timestampUnixMs: 2 }]);
    const room = await store.journal.getRoom('acme-kakao', 'dee');
    expect([room?.sessionId, room?.state]).toEqual(['3001', 'in_progress']);
    // the send of no known session is a conversation of its own, whose convId can be asked for
    const conversations = await store.journal.listConversations('acme-kakao', { max: 10 });
    expect(conversations.map((c) => [c.sessionId, c.convId])).toEqual([
      ['3001', '3001'],
      ['', expect.stringMatching(/^-u[0-9a-f]{12}$/)],
    ]);
    expect((await store.journal.getConversation('acme-kakao', String(conversations[1]?.convId)))?.items.map((i) => i.text)).toEqual(['hello?']);
  });
});
