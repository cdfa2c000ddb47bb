import { ServiceHarness, TOKENS } from '../test-support/service-harness';

interface Conversation {
  ok: true;
  brand: string;
  convId: string;
  userKey: string;
  seq: number;
  sessionId: string;
  ended: boolean;
  lines: Array<{ role: string; text: string; at: string; deleted?: true }>;
}

interface ExportPage {
  ok: true;
  brand: string;
  conversations: Conversation[];
  next: string | null;
}

interface Operation {
  summary?: string;
  tags?: string[];
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}

const EXPORT = '/api/agent/conversations/export';

describe('GET /api/agent/conversations/export', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start();
    // five consultations on acme-kakao: two of one customer (the first ended), one answered by an agent, one with photos
    await h.customerWrites('ann', { text: 'where is my parcel?' });
    await h.post('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'ann', text: 'on its way' });
    await h.post('/sandbox/customers/ann/end', { brandKey: 'acme-kakao' });
    await h.customerWrites('ann', { text: 'it arrived, thanks' });
    await h.customerWrites('ben', { attachments: [{ type: 'photo', caption: 'broken' }] });
    await h.customerWrites('cat', { text: '환불 요청드립니다' });
    await h.customerWrites('dan', { text: 'hello?' });
    const wrong = await h.post<{ serial: string }>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'dan', text: 'meant for another customer' });
    await h.post('/api/agent/delete', { brandKey: 'acme-kakao', userKey: 'dan', serial: wrong.body.serial });
    await h.customerWrites('nia', { text: 'on the other channel' }, 'acme-naver');
  });
  afterAll(async () => {
    await h.stop();
  });

  async function readAll(path: string, token: string = TOKENS.reader): Promise<{ pages: ExportPage[]; conversations: Conversation[] }> {
    const pages: ExportPage[] = [];
    let after: string | null = null;
    do {
      const reply: { status: number; body: ExportPage } = await h.get<ExportPage>(after === null ? path : `${path}&after=${after}`, token);
      expect(reply.status).toBe(200);
      pages.push(reply.body);
      after = reply.body.next;
    } while (after !== null && pages.length < 50);
    return { pages, conversations: pages.flatMap((p) => p.conversations) };
  }

  it('pages through every conversation of the channel once, in convId order, with a BrandRead key', async () => {
    const { pages, conversations } = await readAll(`${EXPORT}?brand=acme-kakao&max=2`);
    expect(pages.map((p) => p.conversations.length)).toEqual([2, 2, 1]);
    expect(pages.map((p) => p.next === null)).toEqual([false, false, true]);
    expect(pages.every((p) => p.ok && p.brand === 'acme-kakao')).toBe(true);
    const ids = conversations.map((c) => c.convId);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(5);
    expect(conversations.map((c) => c.userKey).sort()).toEqual(['ann', 'ann', 'ben', 'cat', 'dan']);
  });

  it('gives each conversation exactly as GET /api/agent/conversation does', async () => {
    const { conversations } = await readAll(`${EXPORT}?brand=acme-kakao&max=1000`);
    for (const conversation of conversations) {
      const alone = await h.get<Conversation>(`/api/agent/conversation?brand=acme-kakao&convId=${encodeURIComponent(conversation.convId)}`, TOKENS.reader);
      expect(conversation).toEqual(alone.body);
    }
    const ended = conversations.find((c) => c.userKey === 'ann' && c.ended);
    expect(ended?.lines.map((l) => [l.role, l.text])).toEqual([
      ['system', 'Consultation started'],
      ['customer', 'where is my parcel?'],
      ['agent', 'on its way'],
      ['system', 'Consultation ended'],
    ]);
    for (const line of ended?.lines ?? []) expect(line.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+09:00$/);
    // a deleted message is marked on its line, as on its message item
    expect(conversations.find((c) => c.userKey === 'dan')?.lines.map((l) => [l.role, l.text, l.deleted])).toEqual([
      ['system', 'Consultation started', undefined],
      ['customer', 'hello?', undefined],
      ['agent', 'meant for another customer', true],
      ['system', 'Message deleted', undefined],
    ]);
    const photos = conversations.find((c) => c.userKey === 'ben');
    expect(photos?.lines[1]?.text).toMatch(/^\[photo\] https:\/\/talk-cdn\.sandbox\.invalid\/\S+ broken$/);
  });

  it('reads 100 per page by default and keeps to the channel asked for', async () => {
    const page = await h.get<ExportPage>(`${EXPORT}?brand=acme-naver`, TOKENS.writer);
    expect(page.status).toBe(200);
    expect(page.body).toEqual({ ok: true, brand: 'acme-naver', conversations: [expect.objectContaining({ userKey: 'nia', brand: 'acme-naver' })], next: null });
    const kakao = await h.get<ExportPage>(`${EXPORT}?brand=acme-kakao`);
    expect(kakao.body.conversations).toHaveLength(5);
    expect(kakao.body.next).toBeNull();
  });

  it('answers a channel without conversations with an empty last page', async () => {
    const page = await h.get<ExportPage>(`${EXPORT}?brand=globex-kakao`, TOKENS.otherBrand);
    expect(page.status).toBe(200);
    expect(page.body).toEqual({ ok: true, brand: 'globex-kakao', conversations: [], next: null });
  });

  it.each(['0', '1001', 'abc', '1.5'])('refuses max=%s with 400 naming max', async (max) => {
    const reply = await h.get(`${EXPORT}?brand=acme-kakao&max=${max}`);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ ok: false, code: 'BAD_REQUEST', message: expect.stringContaining('max') });
  });

  it.each([
    ['not base64url', 'abc%2B%2F'],
    ['a convId instead of a cursor', 'c1%3As-1'],
    ['base64url of something else', Buffer.from('hello').toString('base64url')],
    ['empty', ''],
  ])('refuses an after that is %s with 400 naming after', async (_what, after) => {
    const reply = await h.get(`${EXPORT}?brand=acme-kakao&after=${after}`);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ ok: false, code: 'BAD_REQUEST', message: expect.stringContaining('after') });
  });

  it('refuses a request without brand with 400 naming brand', async () => {
    const reply = await h.get(`${EXPORT}?max=10`);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ ok: false, code: 'BAD_REQUEST', message: expect.stringContaining('brand') });
  });

  it('answers an unknown brand and a brand of another key alike, with 403 FORBIDDEN', async () => {
    const unknown = await h.get(`${EXPORT}?brand=no-such-channel`);
    expect(unknown.status).toBe(403);
    expect(unknown.body).toEqual({ ok: false, code: 'FORBIDDEN', message: expect.stringContaining('brand "no-such-channel"') });
    const foreign = await h.get(`${EXPORT}?brand=acme-kakao`, TOKENS.otherBrand);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ ok: false, code: 'FORBIDDEN' });
  });

  it('needs a key', async () => {
    const reply = await h.get(`${EXPORT}?brand=acme-kakao`, null);
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
  });

  it('leaves the conversation list as it was: summaries per channel', async () => {
    const list = await h.get<Array<{ brand: string; conversations: Array<Record<string, unknown>> }>>('/api/agent/conversations?brand=acme-kakao', TOKENS.reader);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]?.conversations[0]).toEqual(expect.objectContaining({ lastActivity: expect.any(String), last: expect.any(String), count: expect.any(Number) }));
    expect(list.body[0]?.conversations[0]).not.toHaveProperty('lines');
  });

  it('is documented in the OpenAPI document with its parameters and response type', async () => {
    const doc = await h.get<{ paths: Record<string, Record<string, Operation>> }>('/api/docs-json', null);
    const op = doc.body.paths[EXPORT]?.['get'];
    expect(op).toMatchObject({ tags: ['retrieval'], summary: expect.any(String) });
    expect(op?.parameters?.map((p) => [p.name, p.in, p.required === true]).sort()).toEqual([
      ['after', 'query', false],
      ['brand', 'query', true],
      ['max', 'query', false],
    ]);
    expect(op?.responses['200']?.content?.['application/json']?.schema?.$ref).toMatch(/ConversationExportResponseDto$/);
    expect(op?.responses['400']).toBeDefined();
  });
});
