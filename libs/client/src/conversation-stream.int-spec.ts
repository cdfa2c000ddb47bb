import { ApiError, BrandwireClient, type ConversationExportPage, type ConversationResponse, NetworkError, streamConversations } from './index';
import { LiveService, TEST_TOKENS } from './testing';

/** A client that notes when each page is asked for and what it held, beside what the consumer notes. */
class LoggingClient extends BrandwireClient {
  private requests = 0;

  constructor(
    endpoint: string,
    token: string,
    private readonly log: string[],
  ) {
    super({ endpoint, token });
  }

  override async exportConversations(input: { brand: string; after?: string; max?: number }): Promise<ConversationExportPage> {
    const n = (this.requests += 1);
    this.log.push(`request ${n} ${input.brand}`);
    const page = await super.exportConversations(input);
    this.log.push(`page ${n} ${page.conversations.map((c) => c.convId).join(' ')}`);
    return page;
  }
}

async function collect(stream: AsyncIterable<ConversationResponse>): Promise<ConversationResponse[]> {
  const all: ConversationResponse[] = [];
  for await (const conversation of stream) all.push(conversation);
  return all;
}

describe('streamConversations against the built service', () => {
  let live: LiveService;
  let writer: BrandwireClient;

  beforeAll(async () => {
    live = await LiveService.start();
    writer = new BrandwireClient({ endpoint: live.url, token: TEST_TOKENS.writer });
    // seven consultations on acme-kakao (one customer comes back after an end), two on acme-naver
    for (const userKey of ['k1', 'k2', 'k3', 'k4', 'k5', 'k6']) await live.customerWrites(userKey, `question of ${userKey}`);
    await writer.send({ brandKey: 'acme-kakao', userKey: 'k1', text: 'answer to k1' });
    await live.call('POST', '/sandbox/customers/k1/end', { brandKey: 'acme-kakao' });
    await live.customerWrites('k1', 'k1 again');
    for (const userKey of ['n1', 'n2']) await live.customerWrites(userKey, `question of ${userKey}`, 'acme-naver');
  });
  afterAll(async () => {
    await live.stop();
  });

  it('reads a page of whole conversations and follows next to the last page', async () => {
    const first = await writer.exportConversations({ brand: 'acme-kakao', max: 4 });
    expect(first).toMatchObject({ ok: true, brand: 'acme-kakao', next: expect.any(String) });
    expect(first.conversations).toHaveLength(4);
    const rest = await writer.exportConversations({ brand: 'acme-kakao', max: 4, after: first.next as string });
    expect(rest.conversations).toHaveLength(3);
    expect(rest.next).toBeNull();
    await expect(writer.exportConversations({ brand: 'acme-kakao', after: 'not-a-cursor' })).rejects.toMatchObject({ name: 'ApiError', status: 400, code: 'BAD_REQUEST' });
  });

  it('yields every conversation of one channel once, exactly as GET /api/agent/conversation gives it, page by page', async () => {
    const progress: Array<{ conversations: number; lines: number }> = [];
    const all = await collect(streamConversations(writer, { channel: 'acme-kakao', pageSize: 3, onPage: (p) => progress.push(p) }));
    expect(all.map((c) => c.userKey).sort()).toEqual(['k1', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6']);
    expect(new Set(all.map((c) => c.convId)).size).toBe(7);
    for (const conversation of all) expect(conversation).toEqual(await writer.conversation({ brand: 'acme-kakao', convId: conversation.convId }));
    const lines = all.reduce((n, c) => n + c.lines.length, 0);
    expect(progress.map((p) => p.conversations)).toEqual([3, 6, 7]);
    expect(progress.at(-1)).toEqual({ conversations: 7, lines });
    const k1 = all.find((c) => c.userKey === 'k1' && c.ended);
    expect(k1?.lines.map((l) => [l.role, l.text])).toEqual([
      ['system', 'Consultation started'],
      ['customer', 'question of k1'],
      ['agent', 'answer to k1'],
      ['system', 'Consultation ended'],
    ]);
  });

  it('reads every channel the key sees when no channel is given', async () => {
    const all = await collect(streamConversations(writer, { pageSize: 5 }));
    expect(all.map((c) => `${c.brand}/${c.userKey}`).sort()).toEqual(
      ['acme-kakao/k1', 'acme-kakao/k1', 'acme-kakao/k2', 'acme-kakao/k3', 'acme-kakao/k4', 'acme-kakao/k5', 'acme-kakao/k6', 'acme-naver/n1', 'acme-naver/n2'].sort(),
    );
    const other = new BrandwireClient({ endpoint: live.url, token: TEST_TOKENS.otherBrand });
    expect(await collect(streamConversations(other))).toEqual([]);
  });

  it('reads two channels at a time and asks for the next page before the consumer takes a conversation of this one', async () => {
    const log: string[] = [];
    const client = new LoggingClient(live.url, TEST_TOKENS.writer, log);
    for await (const conversation of streamConversations(client, { pageSize: 4 })) log.push(`take ${conversation.convId}`);

    expect(log.slice(0, 2)).toEqual(['request 1 acme-kakao', 'request 2 acme-naver']);
    const pages = log.filter((entry) => entry.startsWith('page ')).map((entry) => entry.split(' ').slice(2));
    expect(pages.map((ids) => ids.length).sort()).toEqual([2, 3, 4]);
    // each page is handed on whole, and acme-kakao's second page was asked for before its first page's first conversation was taken
    const takes = log.filter((entry) => entry.startsWith('take ')).map((entry) => entry.slice(5));
    expect(takes).toHaveLength(9);
    for (const ids of pages) expect(takes.slice(takes.indexOf(ids[0] ?? ''), takes.indexOf(ids[0] ?? '') + ids.length)).toEqual(ids);
    const kakaoFirstPage = pages.find((ids) => ids.length === 4) ?? [];
    expect(log).toContain('request 3 acme-kakao');
    expect(log.indexOf('request 3 acme-kakao')).toBeLessThan(log.indexOf(`take ${kakaoFirstPage[0] ?? ''}`));
  });

  it('lets the consumer stop after any conversation', async () => {
    const taken: string[] = [];
    for await (const conversation of streamConversations(writer, { channel: 'acme-kakao', pageSize: 2 })) {
      taken.push(conversation.convId);
      break;
    }
    expect(taken).toHaveLength(1);
  });

  it('fails with the service error for a channel the key may not read or that does not exist', async () => {
    const foreign = collect(streamConversations(writer, { channel: 'globex-kakao' }));
    await expect(foreign).rejects.toBeInstanceOf(ApiError);
    await expect(foreign).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    await expect(collect(streamConversations(writer, { channel: 'no-such-channel' }))).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN', message: expect.stringContaining('"no-such-channel"') });
    const stranger = new BrandwireClient({ endpoint: live.url, token: 'not-a-key-of-ours-0000' });
    await expect(collect(streamConversations(stranger))).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('fails with a NetworkError when the service cannot be reached', async () => {
    const closed = new BrandwireClient({ endpoint: 'http://127.0.0.1:9', token: TEST_TOKENS.writer });
    await expect(collect(streamConversations(closed, { channel: 'acme-kakao' }))).rejects.toBeInstanceOf(NetworkError);
  });
});
