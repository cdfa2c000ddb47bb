import { ServiceHarness, TOKENS } from '../../test-support/service-harness';

describe('the per-key rate limit (RATE_LIMIT_PER_KEY)', () => {
  let h: ServiceHarness;

  afterEach(async () => {
    await h.stop();
  });

  function expectRefusal(reply: { status: number; body: unknown; headers: Headers }, limit: number): void {
    const retryAfter = Number(reply.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 429,
      body: { ok: false, code: 'RATE_LIMITED', message: `this key has made its ${limit} requests of this minute: try again in ${retryAfter} s` },
    });
  }

  it("refuses a key's requests past the limit, with Retry-After, and sends nothing for them; other keys go on", async () => {
    h = await ServiceHarness.start({ env: { RATE_LIMIT_PER_KEY: '3' } });
    await h.customerWrites('ann', { text: 'hello' }, 'acme-kakao');
    const sends = [];
    for (const text of ['one', 'two', 'three']) sends.push(await h.post('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'ann', text }));
    // the customer's message above was the writer key's first request of the minute
    expect(sends.map((r) => [r.status, r.body['ok']])).toEqual([
      [200, true],
      [200, true],
      [429, false],
    ]);
    expectRefusal(sends[2] as (typeof sends)[number], 3);
    expectRefusal(await h.get('/api/agent/me'), 3);

    const chat = await h.request<{ bubbles: Array<{ text?: string }> }>('GET', '/sandbox/customers/ann/chat?brand=acme-kakao', { token: TOKENS.admin });
    expect(chat.body.bubbles.map((b) => b.text)).toEqual(['hello', 'one', 'two']);
    expect((await h.get('/api/agent/me', TOKENS.reader)).status).toBe(200);
    expect((await h.get('/api/agent/me', 'no-such-key')).body).toEqual({ ok: false, code: 'UNAUTHORIZED', message: 'unknown key' });
  });

  it('counts the messages pages served from memory as the route does', async () => {
    h = await ServiceHarness.start({ env: { RATE_LIMIT_PER_KEY: '3' } });
    await h.customerWrites('bo', { text: 'hello' }, 'acme-kakao'); // a reference and a message
    const page = '/api/agent/rooms/bo/messages?brand=acme-kakao&max=10';
    const reads = [];
    for (let i = 0; i < 4; i += 1) reads.push(await h.get(page, TOKENS.reader));
    expect(reads.slice(0, 3).map((r) => [r.status, (r.body['messages'] as unknown[]).length])).toEqual([
      [200, 2],
      [200, 2],
      [200, 2],
    ]);
    expectRefusal(reads[3] as (typeof reads)[number], 3);
  });

  it('sets no limit with 0', async () => {
    h = await ServiceHarness.start({ env: { RATE_LIMIT_PER_KEY: '0' } });
    const replies = await Promise.all(Array.from({ length: 40 }, () => h.get('/api/agent/me', TOKENS.reader)));
    expect(replies.map((r) => r.status)).toEqual(Array.from({ length: 40 }, () => 200));
  });
});
