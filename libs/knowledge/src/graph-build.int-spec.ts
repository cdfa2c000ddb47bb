import { KnowledgeGraphError } from './errors';
import { CDN, conversation, line, parcelConversation, refundConversation, stream } from './test-support/conversations';
import { tempGraphPath, type TempDir, withGraph } from './test-support/temp-graph';
import type { BuildProgress } from './types';

describe('KnowledgeGraph install and build (real Kuzu)', () => {
  let temp: TempDir;
  beforeEach(() => (temp = tempGraphPath()));
  afterEach(() => temp.remove());

  it('installs the schema and the full-text indexes idempotently', async () => {
    await withGraph(temp.path, {}, async (graph) => {
      expect(await graph.isInstalled()).toBe(false);
      const first = await graph.install();
      expect(first.createdTables).toEqual(expect.arrayContaining(['Channel', 'Customer', 'Conversation', 'Inquiry', 'Response', 'Attachment', 'ASKED', 'ANSWERED_BY', 'HAS_TURN', 'ENDED']));
      expect(first.createdIndexes).toEqual(['inquiry_text', 'response_text']);
      expect(await graph.install()).toEqual({ createdTables: [], createdIndexes: [] });
      const status = await graph.status();
      expect(status).toMatchObject({ installed: true, readOnly: false, kuzuVersion: '0.11.3', ftsIndexes: ['inquiry_text', 'response_text'] });
      expect(Object.values(status.nodes).every((n) => n === 0)).toBe(true);
    });
  });

  it('refuses to build before install', async () => {
    await withGraph(temp.path, {}, async (graph) => {
      await expect(graph.build([parcelConversation()], { attachmentHost: CDN })).rejects.toMatchObject({ code: 'NOT_INSTALLED' });
    });
  });

  it('loads conversations: turn ids, typed attachments, original time vs load time, relations', async () => {
    await withGraph(temp.path, {}, async (graph) => {
      await graph.install();
      const progress: BuildProgress[] = [];
      const before = Date.now();
      const report = await graph.build(stream([parcelConversation(), refundConversation()]), { attachmentHost: CDN, onProgress: (p) => progress.push(p) });
      expect(report).toMatchObject({ conversations: 2, messages: 7, newConversations: 2, grownConversations: 0, skipped: [] });
      expect(report.addedNodes).toEqual({ Channel: 1, Customer: 2, Conversation: 2, Inquiry: 3, Response: 3, Attachment: 2 });
      expect(report.addedRelations).toEqual({ HAS_CUSTOMER: 2, HAS_CONVERSATION: 2, ASKED: 3, ANSWERED_BY: 5, HAS_TURN: 6, HAS_ATTACHMENT: 2, ENDED: 1 });
      expect(progress.map((p) => p.phase)).toEqual(['loading', 'indexing', 'done']);

      const turns = await graph.query("MATCH (:Conversation {convId: 'conv-1'})-[h:HAS_TURN]->(t) RETURN t.id, label(t), h.turn, t.ts, t.loadedAt ORDER BY h.turn");
      expect(turns.types).toEqual(['STRING', 'STRING', 'INT64', 'TIMESTAMP', 'TIMESTAMP']);
      expect(turns.rows.map((r) => r.slice(0, 4))).toEqual([
        ['conv-1#1', 'Inquiry', 1, '2026-11-20T01:00:00.000Z'],
        ['conv-1#2', 'Inquiry', 2, '2026-11-20T01:01:00.000Z'],
        ['conv-1#3', 'Response', 3, '2026-11-20T01:02:00.000Z'],
        ['conv-1#4', 'Response', 4, '2026-11-20T01:03:00.000Z'],
      ]);
      const loadedAt = Date.parse(String(turns.rows[0]?.[4]));
      expect(loadedAt).toBeGreaterThanOrEqual(before - 1000);
      expect(loadedAt).toBeLessThanOrEqual(Date.now() + 1000);

      const attachments = await graph.query("MATCH (:Inquiry {id: 'conv-1#2'})-[:HAS_ATTACHMENT]->(a:Attachment) RETURN a.id, a.type, a.url, a.caption ORDER BY a.id");
      expect(attachments.rows).toEqual([
        ['conv-1#2/1', 'photo', `https://${CDN}/a.jpg`, 'the torn box'],
        ['conv-1#2/2', 'photo', `https://${CDN}/b.jpg`, null],
      ]);
      const text = await graph.query("MATCH (i:Inquiry {id: 'conv-1#2'}) RETURN i.text");
      expect(text.rows[0]?.[0]).toBe(parcelConversation().lines[1]?.text);

      const ended = await graph.query('MATCH (r:Response)-[:ENDED]->(c:Conversation) RETURN r.id, c.convId, c.ended, c.endedAt');
      expect(ended.rows).toEqual([['conv-1#4', 'conv-1', true, '2026-11-20T01:04:00.000Z']]);
      const asked = await graph.query("MATCH (ch:Channel)-[:HAS_CUSTOMER]->(c:Customer {userKey: 'user-2'})-[:ASKED]->(i:Inquiry) RETURN ch.key, c.id, i.text");
      expect(asked.rows).toEqual([['brand-a', 'brand-a/user-2', 'I want a refund for my card payment']]);
    });
  });

  it('adds only what is new on a re-run: grown conversations get their new turns, nothing is duplicated', async () => {
    await withGraph(temp.path, {}, async (graph) => {
      await graph.install();
      const early = conversation('conv-3', [line('customer', 'Where is my coupon', 20), line('agent', 'Checking', 21)]);
      await graph.build([parcelConversation(), early], { attachmentHost: CDN });
      const before = await graph.status();

      const again = await graph.build(stream([parcelConversation(), early]), { attachmentHost: CDN });
      expect(again).toMatchObject({ newConversations: 0, grownConversations: 0, addedNodes: {}, addedRelations: {} });
      expect(await graph.status()).toEqual(before);

      const grown = { ...early, ended: true, seq: 9, lines: [...early.lines, line('agent', 'The coupon is in your wallet now', 22), line('customer', 'thanks', 23), line('system', 'ended', 24)] };
      const report = await graph.build([grown, refundConversation()], { attachmentHost: CDN });
      expect(report).toMatchObject({ newConversations: 1, grownConversations: 1 });
      expect(report.addedNodes).toEqual({ Customer: 1, Conversation: 1, Inquiry: 2, Response: 2 });
      expect(report.addedRelations).toMatchObject({ ANSWERED_BY: 2, ENDED: 1 });

      const conv = await graph.query("MATCH (c:Conversation {convId: 'conv-3'}) RETURN c.lines, c.seq, c.ended, c.endedAt, c.startedAt");
      expect(conv.rows).toEqual([[5, 9, true, '2026-11-20T01:24:00.000Z', '2026-11-20T01:20:00.000Z']]);
      const answers = await graph.query("MATCH (i:Inquiry {id: 'conv-3#1'})-[:ANSWERED_BY]->(r) RETURN r.id ORDER BY r.id");
      expect(answers.rows).toEqual([['conv-3#2'], ['conv-3#3']]);
      const ended = await graph.query("MATCH (r:Response)-[:ENDED]->(:Conversation {convId: 'conv-3'}) RETURN r.id");
      expect(ended.rows).toEqual([['conv-3#3']]);
      const turns = await graph.query('MATCH (t) WHERE label(t) IN ["Inquiry", "Response"] RETURN count(t), count(DISTINCT t.id)');
      expect(turns.rows).toEqual([[10, 10]]);
    });
  });

  it('takes out a response whose message was deleted after it was loaded, with its attachments, once', async () => {
    await withGraph(temp.path, {}, async (graph) => {
      await graph.install();
      const answered = conversation('conv-5', [
        line('customer', 'Which voucher works', 30),
        line('agent', `Use voucher ZX-42\n[photo] https://${CDN}/voucher.jpg`, 31),
        line('agent', 'It is valid until Friday', 32),
      ]);
      await graph.build([answered], { attachmentHost: CDN });
      expect((await graph.search('voucher')).map((h) => h.id)).toContain('conv-5#2');

      const withdrawn = { ...answered, lines: answered.lines.map((l, i) => (i === 1 ? { ...l, deleted: true as const } : l)) };
      const report = await graph.build([withdrawn], { attachmentHost: CDN });
      expect(report).toMatchObject({ removedResponses: 1, newConversations: 0, grownConversations: 0, addedNodes: {} });
      const responses = await graph.query("MATCH (:Conversation {convId: 'conv-5'})-[:HAS_TURN]->(r:Response) RETURN r.id ORDER BY r.id");
      expect(responses.rows).toEqual([['conv-5#3']]);
      expect((await graph.query('MATCH (a:Attachment) RETURN count(a)')).rows).toEqual([[0]]);
      expect((await graph.query("MATCH (:Inquiry {id: 'conv-5#1'})-[:ANSWERED_BY]->(r) RETURN r.id")).rows).toEqual([['conv-5#3']]);
      expect((await graph.search('ZX-42')).map((h) => h.id)).not.toContain('conv-5#2');

      expect(await graph.build([withdrawn], { attachmentHost: CDN })).toMatchObject({ removedResponses: 0 });
    });
  });

  it('passes what a withdrawn response answered and ended to the responses that remain', async () => {
    await withGraph(temp.path, {}, async (graph) => {
      await graph.install();
      const loaded = conversation(
        'conv-6',
        [line('customer', 'Is the blue one in stock', 40), line('agent', 'Yes, two left', 41), line('customer', 'And in size M', 42), line('agent', 'Size M too', 43), line('agent', 'Anything else?', 44), line('system', 'ended', 45)],
        { ended: true },
      );
      await graph.build([loaded], { attachmentHost: CDN });
      const withdraw = (turns: number[]) => ({ ...loaded, lines: loaded.lines.map((l, i) => (turns.includes(i + 1) ? { ...l, deleted: true as const } : l)) });
      const answers = async () => (await graph.query('MATCH (i:Inquiry)-[a:ANSWERED_BY]->(r:Response) RETURN i.id, r.id, a.turns ORDER BY i.id, r.id')).rows;
      const endedBy = async () => (await graph.query("MATCH (r:Response)-[:ENDED]->(:Conversation {convId: 'conv-6'}) RETURN r.id")).rows;
      expect(await answers()).toEqual([['conv-6#1', 'conv-6#2', 1], ['conv-6#3', 'conv-6#4', 1], ['conv-6#3', 'conv-6#5', 2]]);
      expect(await endedBy()).toEqual([['conv-6#5']]);

      const report = await graph.build([withdraw([2, 5])], { attachmentHost: CDN });
      expect(report).toMatchObject({ removedResponses: 2, addedNodes: {}, addedRelations: { ANSWERED_BY: 1, ENDED: 1 } });
      expect(await answers()).toEqual([['conv-6#1', 'conv-6#4', 3], ['conv-6#3', 'conv-6#4', 1]]);
      expect(await endedBy()).toEqual([['conv-6#4']]);

      expect(await graph.build([withdraw([2, 5])], { attachmentHost: CDN })).toMatchObject({ removedResponses: 0, addedRelations: {} });
      await graph.build([withdraw([2, 4, 5])], { attachmentHost: CDN });
      expect(await answers()).toEqual([]);
      expect(await endedBy()).toEqual([]);
    });
  });

  it('skips a convId already loaded from another channel and reports it', async () => {
    await withGraph(temp.path, {}, async (graph) => {
      await graph.install();
      await graph.build([parcelConversation()], { attachmentHost: CDN });
      const report = await graph.build([{ ...parcelConversation(), brand: 'brand-b' }], { attachmentHost: CDN });
      expect(report.skipped).toEqual([{ convId: 'conv-1', reason: 'a conversation with this convId was loaded from channel brand-a' }]);
    });
  });

  it('copies in several batches when asked to', async () => {
    await withGraph(temp.path, {}, async (graph) => {
      await graph.install();
      const many = Array.from({ length: 30 }, (_, i) => conversation(`b-${i}`, [line('customer', `question ${i}`, 0), line('agent', `answer ${i}`, 1)], { userKey: `u-${i % 7}` }));
      const phases: string[] = [];
      const report = await graph.build(many, { attachmentHost: CDN, batchMessages: 10, onProgress: (p) => phases.push(p.phase) });
      expect(phases.filter((p) => p === 'loading')).toHaveLength(6);
      expect(report.addedNodes).toMatchObject({ Conversation: 30, Customer: 7, Inquiry: 30, Response: 30 });
      expect((await graph.search('question')).length).toBeGreaterThan(0);
    });
  });

  it('refuses install and build on a graph opened read-only', async () => {
    await withGraph(temp.path, {}, (graph) => graph.install());
    await withGraph(temp.path, { readOnly: true }, async (graph) => {
      await expect(graph.install()).rejects.toEqual(new KnowledgeGraphError('READ_ONLY', 'Cannot install the schema: the knowledge graph was opened read-only.'));
      await expect(graph.build([], { attachmentHost: CDN })).rejects.toMatchObject({ code: 'READ_ONLY' });
    });
  });
});
