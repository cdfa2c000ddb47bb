import { request } from 'node:http';
import { ServiceHarness, TOKENS } from '../test-support/service-harness';

interface Item {
  seq: number;
  kind: string;
  text: string;
  sessionId: string;
  userKey: string;
  timestampUnixMs: number;
  serial?: string;
}

describe('retrieval', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('carries customer attachments as "[type] <url>" lines on the exact attachment host, photos bundled', async () => {
    await h.customerWrites('pat', {
      attachments: [
        { type: 'photo', caption: 'front' },
        { type: 'photo' },
        { type: 'file', caption: 'invoice' },
      ],
    });
    const reply = await h.get<{ messages: Item[] }>('/api/agent/rooms/pat/messages?brand=acme-kakao');
    const texts = reply.body.messages.filter((m) => m.kind === 'message').map((m) => m.text);
    expect(texts).toHaveLength(2);
    const [file, photos] = texts;
    expect(photos?.split('\n')).toEqual([
      expect.stringMatching(/^\[photo\] https:\/\/talk-cdn\.sandbox\.invalid\/\S+ front$/),
      expect.stringMatching(/^\[photo\] https:\/\/talk-cdn\.sandbox\.invalid\/\S+$/),
    ]);
    expect(file).toMatch(/^\[file\] https:\/\/talk-cdn\.sandbox\.invalid\/\S+ invoice$/);
  });

  it('returns messages newest first, with max from 1 to 300 (default 100)', async () => {
    await h.customerWrites('quinn', { text: 'm0' });
    for (let i = 1; i < 105; i += 1) await h.customerWrites('quinn', { text: `m${i}` });
    const all = await h.get<{ ok: boolean; brand: string; userKey: string; messages: Item[] }>('/api/agent/rooms/quinn/messages?brand=acme-kakao');
    expect(all.body).toMatchObject({ ok: true, brand: 'acme-kakao', userKey: 'quinn' });
    expect(all.body.messages).toHaveLength(100);
    expect(all.body.messages[0]?.text).toBe('m104');
    const seqs = all.body.messages.map((m) => m.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));

    const one = await h.get<{ messages: Item[] }>('/api/agent/rooms/quinn/messages?brand=acme-kakao&max=1');
    expect(one.body.messages.map((m) => m.text)).toEqual(['m104']);
    const most = await h.get<{ messages: Item[] }>('/api/agent/rooms/quinn/messages?brand=acme-kakao&max=300');
    expect(most.body.messages).toHaveLength(106);
  });

  it("pages back with before=<seq>, and before=<a signal's seq + 1>&max=1 reads that signal's item whatever came after", async () => {
    const seqs: number[] = [];
    for (let i = 0; i < 6; i += 1) seqs.push(await h.customerWrites('paige', { text: `p${i}` }));
    const page = async (query: string) =>
      (await h.get<{ messages: Item[] }>(`/api/agent/rooms/paige/messages?brand=acme-kakao&${query}`)).body.messages.map((m) => m.text);
    expect(await page('max=2')).toEqual(['p5', 'p4']);
    expect(await page(`max=2&before=${seqs[4]}`)).toEqual(['p3', 'p2']);
    expect(await page(`max=1&before=${(seqs[1] as number) + 1}`)).toEqual(['p1']);
    // the latest page is still the latest after a page further back was read (that one is not kept as it)
    expect(await page('max=2')).toEqual(['p5', 'p4']);
  });

  it.each(['0', '-1', '1.5', 'x', '9007199254740992'])('refuses before=%s with 400 naming before', async (before) => {
    const reply = await h.get(`/api/agent/rooms/paige/messages?brand=acme-kakao&before=${before}`);
    expect([reply.status, reply.body['code'], String(reply.body['message'])]).toEqual([400, 'BAD_REQUEST', expect.stringContaining('before')]);
  });

  it('takes an empty max as not given (the default 100)', async () => {
    await h.customerWrites('vera', { text: 'only one' });
    const reply = await h.get<{ messages: Item[] }>('/api/agent/rooms/vera/messages?brand=acme-kakao&max=');
    expect(reply.status).toBe(200);
    expect(reply.body.messages.map((m) => m.text)).toEqual(['only one', 'Consultation started']);
  });

  it.each(['0', '301', 'abc', '1.5', '0x10', '1e2', '5.0', '%205', '-1'])('refuses max=%s with 400 naming max', async (max) => {
    const reply = await h.get(`/api/agent/rooms/quinn/messages?brand=acme-kakao&max=${max}`);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ ok: false, code: 'BAD_REQUEST', message: expect.stringContaining('max') });
  });

  it('refuses a retrieval without brand with 400 naming brand', async () => {
    const reply = await h.get('/api/agent/rooms');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('brand') });
  });

  it.each([
    ['blank', '%20%20', 'userKey must not be blank (empty or only spaces)'],
    ['longer than 200 characters', 'u'.repeat(201), 'userKey must be shorter than or equal to 200 characters'],
  ])('refuses a customer key in the path that is %s, as in a body', async (_, userKey, message) => {
    const reply = await h.get(`/api/agent/rooms/${userKey}/messages?brand=acme-kakao`);
    expect([reply.status, reply.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message }]);
    const sandbox = await h.get(`/sandbox/customers/${userKey}/chat?brand=acme-kakao`);
    expect([sandbox.status, sandbox.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message }]);
  });

  it.each(['%2e%2e', '%2E'])('refuses a customer key %s in the path, which URLs read as a folder, with 400', async (segment) => {
    // node:http sends the path as given; fetch would resolve the dots before sending
    const { hostname, port } = new URL(h.url);
    for (const path of [`/api/agent/rooms/${segment}/messages?brand=acme-kakao`, `/sandbox/customers/${segment}/chat?brand=acme-kakao`]) {
      const reply = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: hostname, port, path, headers: { authorization: `Bearer ${TOKENS.writer}` } }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
      const dots = decodeURIComponent(segment);
      expect([reply.status, JSON.parse(reply.body)]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: `userKey cannot be "${dots}" in a path` }]);
    }
  });

  it('lists rooms in progress with their summaries, and drops a room once its consultation ends', async () => {
    await h.customerWrites('rita', { text: 'first' });
    const sent = await h.post<{ serial: string }>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'rita', text: 'answer' });
    const rooms = await h.get<{ ok: boolean; brand: string; rooms: Array<Record<string, unknown>> }>('/api/agent/rooms?brand=acme-kakao', TOKENS.reader);
    expect(rooms.body.ok).toBe(true);
    const rita = rooms.body.rooms.find((r) => r['userKey'] === 'rita');
    expect(rita).toEqual({
      userKey: 'rita',
      lastSeq: expect.any(Number),
      lastText: 'answer',
      lastKind: 'agent',
      lastTimestampUnixMs: expect.any(Number),
      count: 3,
      ended: false,
    });
    expect(sent.body.serial).toBeDefined();
    expect(rooms.body.rooms[0]?.['userKey']).toBe('rita');

    await h.post('/sandbox/customers/rita/end', { brandKey: 'acme-kakao' });
    const after = await h.get<{ rooms: Array<Record<string, unknown>> }>('/api/agent/rooms?brand=acme-kakao');
    expect(after.body.rooms.find((r) => r['userKey'] === 'rita')).toBeUndefined();
  });

  it('groups a consultation into a conversation with roles and ISO 8601 times with offset', async () => {
    await h.customerWrites('sam', { text: 'where is my parcel?', reference: { extra: 'order-42' } });
    await h.post('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'sam', text: 'on its way' });
    await h.post('/sandbox/customers/sam/end', { brandKey: 'acme-kakao' });

    const list = await h.get<Array<{ brand: string; conversations: Array<Record<string, unknown>> }>>('/api/agent/conversations?brand=acme-kakao', TOKENS.reader);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]?.brand).toBe('acme-kakao');
    const summary = list.body[0]?.conversations.find((c) => c['userKey'] === 'sam');
    expect(summary).toEqual({
      convId: expect.any(String),
      userKey: 'sam',
      seq: expect.any(Number),
      sessionId: expect.any(String),
      ended: true,
      lastActivity: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+09:00$/),
      last: 'Consultation ended',
      count: 4,
    });

    const conversation = await h.get<Record<string, unknown> & { lines: Array<{ role: string; text: string; at: string }> }>(
      `/api/agent/conversation?brand=acme-kakao&convId=${String(summary?.['convId'])}`,
      TOKENS.reader,
    );
    expect(conversation.status).toBe(200);
    expect(conversation.body).toMatchObject({ ok: true, convId: summary?.['convId'], userKey: 'sam', ended: true, sessionId: summary?.['sessionId'] });
    expect(conversation.body.lines.map((l) => [l.role, l.text])).toEqual([
      ['system', 'Consultation started'],
      ['customer', 'where is my parcel?'],
      ['agent', 'on its way'],
      ['system', 'Consultation ended'],
    ]);
    for (const line of conversation.body.lines) expect(line.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+09:00$/);
  });

  it('lists conversations of every readable channel without brand', async () => {
    const list = await h.get<Array<{ brand: string }>>('/api/agent/conversations', TOKENS.reader);
    expect(list.body.map((b) => b.brand)).toEqual(['acme-kakao', 'acme-naver']);
  });

  it('refuses a userKey filter longer than 200 characters, as every other userKey, with 400', async () => {
    const reply = await h.get(`/api/agent/conversations?brand=acme-kakao&userKey=${'u'.repeat(10_000)}`, TOKENS.reader);
    expect([reply.status, reply.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: 'userKey must be shorter than or equal to 200 characters' }]);
  });

  it('answers an unknown convId with 404 NO_CONV', async () => {
    const reply = await h.get('/api/agent/conversation?brand=acme-kakao&convId=does-not-exist');
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ ok: false, code: 'NO_CONV', message: expect.stringContaining('does-not-exist') });
    const long = await h.get(`/api/agent/conversation?brand=acme-kakao&convId=${'9'.repeat(5000)}`);
    expect([long.status, long.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: 'convId must be shorter than or equal to 100 characters' }]);
  });

  it('journals an expiry when the clock passes 30 days after the last customer message', async () => {
    await h.customerWrites('tom', { text: 'anyone?' });
    const clock = await h.post<{ ok: boolean; now: number }>('/sandbox/clock', { advanceSeconds: 31 * 24 * 3600 });
    expect(clock.body.ok).toBe(true);
    const messages = await h.get<{ messages: Item[] }>('/api/agent/rooms/tom/messages?brand=acme-kakao');
    expect(messages.body.messages[0]).toMatchObject({ kind: 'expired', text: 'Session expired' });
    expect(messages.body.messages[0]?.timestampUnixMs).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
    const send = await h.post<{ ok: boolean; code: string }>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'tom', text: 'late' });
    expect(send.body).toMatchObject({ ok: false, code: '-502' });
  });
});
