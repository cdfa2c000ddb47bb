import { request } from 'node:http';
import { ServiceHarness, TOKENS } from '../test-support/service-harness';

interface Item {
  seq: number;
  kind: string;
  text: string;
  serial?: string;
  deleted?: boolean;
}
type Page = { ok: boolean; messages: Item[] };

const path = (userKey: string, query = 'brand=acme-kakao') => `/api/agent/rooms/${userKey}/messages?${query}`;

/** How many times the service read a room's items from the journal during `work`. */
async function journalReads(h: ServiceHarness, work: () => Promise<unknown>): Promise<number> {
  const spy = jest.spyOn(h.service.runtime.store.journal, 'listMessages');
  try {
    await work();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

describe('messages pages of rooms read again', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('answers a page read again with the same bytes and headers, without reading the journal again', async () => {
    await h.customerWrites('cara', { text: 'is my parcel on its way?' });
    const first = await fetch(`${h.url}${path('cara')}`, { headers: { authorization: `Bearer ${TOKENS.writer}` } });
    const firstText = await first.text();
    let again: Response | undefined;
    const reads = await journalReads(h, async () => {
      again = await fetch(`${h.url}${path('cara')}`, { headers: { authorization: `Bearer ${TOKENS.writer}` } });
    });
    expect(reads).toBe(0);
    expect(again?.status).toBe(200);
    expect(await again?.text()).toBe(firstText);
    expect(again?.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again?.headers.get('content-length')).toBe(String(Buffer.byteLength(firstText)));
  });

  it('shows what changed the room since: a customer message, a send, a delete, the end', async () => {
    const read = async () => (await h.get<Page>(path('dan'))).body.messages;
    await h.customerWrites('dan', { text: 'hello' });
    expect((await read()).map((m) => m.text)).toEqual(['hello', 'Consultation started']);

    await h.customerWrites('dan', { text: 'anyone there?' });
    expect((await read())[0]?.text).toBe('anyone there?');

    const sent = await h.post<{ serial: string }>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'dan', text: 'Yes, how can I help?' });
    expect((await read())[0]).toMatchObject({ kind: 'agent', text: 'Yes, how can I help?', serial: sent.body.serial });
    await read();

    expect((await h.post('/api/agent/delete', { brandKey: 'acme-kakao', userKey: 'dan', serial: sent.body.serial })).body).toMatchObject({ ok: true });
    const afterDelete = await read();
    expect(afterDelete[0]).toMatchObject({ kind: 'deleted', serial: sent.body.serial });
    expect(afterDelete.find((m) => m.kind === 'agent')).toMatchObject({ serial: sent.body.serial, deleted: true });
    await read();

    expect((await h.post('/api/agent/end', { brandKey: 'acme-kakao', userKey: 'dan' })).body).toMatchObject({ ok: true });
    expect((await read())[0]?.kind).toBe('ended');
  });

  it('keeps each max apart', async () => {
    for (const text of ['one', 'two', 'three']) await h.customerWrites('eve', { text });
    expect((await h.get<Page>(path('eve', 'brand=acme-kakao&max=1'))).body.messages.map((m) => m.text)).toEqual(['three']);
    expect((await h.get<Page>(path('eve', 'brand=acme-kakao&max=2'))).body.messages.map((m) => m.text)).toEqual(['three', 'two']);
    expect((await h.get<Page>(path('eve', 'brand=acme-kakao&max=1'))).body.messages.map((m) => m.text)).toEqual(['three']);
    expect((await h.get<Page>(path('eve', 'max=2&brand=acme-kakao'))).body.messages).toHaveLength(2);
  });

  it('still checks the key, its scope and its brand on a page it holds', async () => {
    await h.customerWrites('fay', { text: 'hi' });
    expect((await h.get(path('fay'))).status).toBe(200);
    expect((await h.get(path('fay'))).status).toBe(200);

    expect((await h.get(path('fay'), TOKENS.reader)).status).toBe(200);
    expect((await h.get(path('fay'), TOKENS.otherBrand)).body).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect((await h.get(path('fay'), TOKENS.otherBrand)).status).toBe(403);
    expect((await h.get(path('fay'), 'not-a-key-of-this-service')).body).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
    expect((await h.get(path('fay'), null)).status).toBe(401);
    expect((await h.request('GET', path('fay'), { headers: { authorization: `Basic ${TOKENS.writer}` }, token: null })).status).toBe(401);
  });

  it('answers other spellings of a held page as the route does', async () => {
    for (const text of ['a', 'b', 'c']) await h.customerWrites('gil', { text });
    await h.get(path('gil', 'brand=acme-kakao&max=1'));
    const twice = await h.get(path('gil', 'brand=acme-kakao&max=1&max=2'));
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({ ok: false, code: 'BAD_REQUEST', message: expect.stringContaining('max') });
    expect((await h.get<Page>(path('gil', 'brand=acme-kakao&max=01'))).body.messages.map((m) => m.text)).toEqual(['c']);
    expect((await h.get(path('gil', 'brand=acme-kakao&max=1&extra=1'))).status).toBe(400);
    expect((await h.get(path('gil', 'brand=acme-kakao&max=301'))).status).toBe(400);
    expect((await h.get(path('gil', 'brand=globex-kakao&max=1'))).status).toBe(403);
    expect((await h.get(path('gil', 'brand=nope&max=1'))).body).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('brand "nope"') });
  });

  it('answers a GET with a malformed body on a held page as the route does', async () => {
    await h.customerWrites('ida', { text: 'hi' });
    await h.get(path('ida'));
    // fetch sends no body with a GET; node:http does
    const reply = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const body = '{not json';
      const req = request(`${h.url}${path('ida')}`, {
        method: 'GET',
        headers: { authorization: `Bearer ${TOKENS.writer}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
  });

  it('does not keep the empty page of a customer without items', async () => {
    await h.get(path('nobody-yet'));
    expect(await journalReads(h, () => h.get(path('nobody-yet')))).toBe(1);
  });

  it('serves a user key that needs URL encoding through the route', async () => {
    await h.customerWrites('kim lee', { text: 'spaced' });
    const read = () => h.get<Page>(path(encodeURIComponent('kim lee')));
    expect((await read()).body.messages[0]?.text).toBe('spaced');
    await h.customerWrites('kim lee', { text: 'again' });
    expect((await read()).body.messages[0]?.text).toBe('again');
  });
});

describe.each([
  ['PostgreSQL (other instances write too)', { dialect: 'postgres' as const }],
  ['ROOM_CACHE_MB=0', { env: { ROOM_CACHE_MB: '0' } }],
])('messages pages with %s', (_, options) => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start(options);
  });
  afterAll(async () => {
    await h.stop();
  });

  it('reads the journal for every request', async () => {
    await h.customerWrites('hal', { text: 'hi' });
    await h.get(path('hal'));
    const reads = await journalReads(h, async () => {
      expect((await h.get<Page>(path('hal'))).body.messages[0]?.text).toBe('hi');
    });
    expect(reads).toBe(1);
  });
});
