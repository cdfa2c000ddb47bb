import { isSerial } from '@brandwire/domain';
import { ServiceHarness, TOKENS } from '../../test-support/service-harness';

interface SendReply {
  ok: boolean;
  code: string;
  message: string | null;
  serial: string;
}

interface MessagesReply {
  ok: boolean;
  brand: string;
  userKey: string;
  messages: Array<{ seq: number; kind: string; text: string; serial?: string; sessionId: string; timestampUnixMs: number; deleted?: boolean }>;
}

describe('POST /api/agent/send', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('delivers the text to the customer, answers with a serial and journals an agent item', async () => {
    await h.customerWrites('alice', { text: 'Hi, is my order shipped?' });
    const reply = await h.post<SendReply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'alice', text: 'Yes, it left today.' });

    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ok: true, code: '0', message: null, serial: expect.any(String) });
    expect(isSerial(reply.body.serial)).toBe(true);

    const chat = await h.customerChat('alice');
    expect(chat.map((b) => [b.from, b.text])).toEqual([
      ['customer', 'Hi, is my order shipped?'],
      ['agent', 'Yes, it left today.'],
    ]);
    expect(chat[1]?.serial).toBe(reply.body.serial);

    const messages = await h.get<MessagesReply>('/api/agent/rooms/alice/messages?brand=acme-kakao');
    expect(messages.status).toBe(200);
    expect(messages.body.messages.map((m) => [m.kind, m.text])).toEqual([
      ['agent', 'Yes, it left today.'],
      ['message', 'Hi, is my order shipped?'],
      ['reference', 'Consultation started'],
    ]);
    const [agent, message] = messages.body.messages;
    expect(agent?.serial).toBe(reply.body.serial);
    expect(agent?.sessionId).toBe(message?.sessionId);
    expect(message).not.toHaveProperty('serial');
    expect(agent).not.toHaveProperty('deleted');
  });

  it('gives each send its own increasing serial', async () => {
    await h.customerWrites('bob', { text: 'hello' });
    const serials: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      serials.push((await h.post<SendReply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'bob', text: `n${i}` })).body.serial);
    }
    expect(new Set(serials).size).toBe(5);
    expect([...serials].sort()).toEqual(serials);
  });

  it('journals sends made to one customer at once in the order the customer received them', async () => {
    await h.customerWrites('bea', { text: 'hello' });
    const texts = Array.from({ length: 24 }, (_, i) => `p${i + 1}`);
    const replies = await Promise.all(texts.map((text) => h.post<SendReply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'bea', text })));
    expect(replies.every((r) => r.body.ok)).toBe(true);

    const received = (await h.customerChat('bea')).filter((b) => b.from === 'agent').map((b) => b.text);
    const messages = await h.get<MessagesReply>('/api/agent/rooms/bea/messages?brand=acme-kakao&max=300');
    const journaled = messages.body.messages.filter((m) => m.kind === 'agent').reverse();
    expect(journaled.map((m) => m.text)).toEqual(received);
    expect([...received].sort()).toEqual([...texts].sort());
    const serials = journaled.map((m) => m.serial as string);
    expect([...serials].sort()).toEqual(serials);
  });

  it('passes a rejection for a customer without a consultation through as HTTP 200, ok:false, -502, with the serial', async () => {
    const reply = await h.post<SendReply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'nobody', text: 'hello?' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ ok: false, code: '-502', message: expect.stringContaining('InvalidSession') });
    expect(isSerial(reply.body.serial)).toBe(true);
    const messages = await h.get<MessagesReply>('/api/agent/rooms/nobody/messages?brand=acme-kakao');
    expect(messages.body.messages).toEqual([]);
  });

  it('refuses to send after the customer left the chat (-502) and lets a new message start a new consultation', async () => {
    await h.customerWrites('carol', { text: 'bye soon' });
    const left = await h.post<{ ok: boolean; seq: number }>('/sandbox/customers/carol/end', { brandKey: 'acme-kakao' });
    expect(left.body.ok).toBe(true);

    const refused = await h.post<SendReply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'carol', text: 'still there?' });
    expect(refused.body).toMatchObject({ ok: false, code: '-502' });

    await h.customerWrites('carol', { text: 'back again' });
    const accepted = await h.post<SendReply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'carol', text: 'welcome back' });
    expect(accepted.body.ok).toBe(true);

    const kinds = (await h.get<MessagesReply>('/api/agent/rooms/carol/messages?brand=acme-kakao')).body.messages.map((m) => m.kind);
    expect(kinds).toEqual(['agent', 'message', 'reference', 'ended', 'message', 'reference']);
  });

  it('passes the messenger length limit through (-506) and delivers nothing', async () => {
    await h.customerWrites('dave', { text: 'long one please' });
    const reply = await h.post<SendReply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'dave', text: 'x'.repeat(1001) });
    expect(reply.body).toMatchObject({ ok: false, code: '-506' });
    expect((await h.customerChat('dave')).filter((b) => b.from === 'agent')).toEqual([]);
    const exact = await h.post<SendReply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'dave', text: 'y'.repeat(1000) });
    expect(exact.body.ok).toBe(true);
    // the limit is in characters: 1,000 emoji are 2,000 UTF-16 units
    const emoji = await h.post<SendReply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'dave', text: '\u{1F600}'.repeat(1000) });
    expect(emoji.body.ok).toBe(true);
    expect((await h.post<SendReply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'dave', text: '\u{1F600}'.repeat(1001) })).body).toMatchObject({ ok: false, code: '-506' });
  });

  it('passes -506 through for a text just under the default 1 MB body limit (the messenger takes any body the service takes)', async () => {
    await h.customerWrites('dora', { text: 'a very long answer, please' });
    const target = { brandKey: 'acme-kakao', userKey: 'dora' };
    const text = 'x'.repeat(1024 * 1024 - Buffer.byteLength(JSON.stringify({ ...target, text: '' })) - 1);
    expect(Buffer.byteLength(JSON.stringify({ ...target, text }))).toBe(1024 * 1024 - 1);
    const reply = await h.post<SendReply>('/api/agent/send', { ...target, text });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ok: false, code: '-506', message: expect.stringMatching(/^MessageLengthOverLimitException/), serial: expect.any(String) });
    expect((await h.customerChat('dora')).filter((b) => b.from === 'agent')).toEqual([]);
  });

  it('passes an empty text through as the messenger malformed-message code (-510)', async () => {
    await h.customerWrites('erin', { text: 'hey' });
    const reply = await h.post<SendReply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'erin', text: '' });
    expect(reply.body).toMatchObject({ ok: false, code: '-510' });
  });

  it.each([
    ['a missing text', { brandKey: 'acme-kakao', userKey: 'x' }, 'text'],
    ['a missing userKey', { brandKey: 'acme-kakao', text: 'x' }, 'userKey'],
    ['a missing brandKey', { userKey: 'x', text: 'x' }, 'brandKey'],
    ['a number as userKey', { brandKey: 'acme-kakao', userKey: 5, text: 'x' }, 'userKey'],
    ['an object as text', { brandKey: 'acme-kakao', userKey: 'x', text: { a: 1 } }, 'text'],
    ['an unknown field', { brandKey: 'acme-kakao', userKey: 'x', text: 'x', colour: 'red' }, 'colour'],
    ['a blank userKey', { brandKey: 'acme-kakao', userKey: '  ', text: 'x' }, 'userKey must not be blank'],
  ])('answers %s with 400 BAD_REQUEST naming the field', async (_, body, field) => {
    const reply = await h.post('/api/agent/send', body);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ ok: false, code: 'BAD_REQUEST', message: expect.stringContaining(field) });
  });

  it.each([
    ['__proto__', '{"brandKey":"acme-kakao","userKey":"proto-user","text":"hi","__proto__":{"polluted":1}}', '__proto__'],
    ['constructor', '{"brandKey":"acme-kakao","userKey":"proto-user","text":"hi","constructor":{"prototype":{"polluted":1}}}', 'constructor'],
    ['prototype', '{"brandKey":"acme-kakao","userKey":"proto-user","text":"hi","prototype":{"polluted":1}}', 'prototype'],
  ])('refuses a %s key as an unknown field: 400 BAD_REQUEST, nothing sent, nothing polluted', async (_, rawBody, path) => {
    await h.customerWrites('proto-user', { text: 'hello' });
    const reply = await h.request('POST', '/api/agent/send', { rawBody });
    expect([reply.status, reply.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: `property ${path} should not exist` }]);
    expect((await h.customerChat('proto-user')).filter((b) => b.from === 'agent')).toEqual([]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('refuses a text with a lone surrogate with 400 naming the field: the customer and the journal would hold different texts', async () => {
    await h.customerWrites('lone-user', { text: 'hello' });
    const rawBody = '{"brandKey":"acme-kakao","userKey":"lone-user","text":"\\ud800abc"}';
    const reply = await h.request('POST', '/api/agent/send', { rawBody });
    expect([reply.status, reply.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: expect.stringMatching(/^text is not well-formed Unicode/) }]);
    expect((await h.customerChat('lone-user')).filter((b) => b.from === 'agent')).toEqual([]);
    const paired = await h.request('POST', '/api/agent/send', { rawBody: '{"brandKey":"acme-kakao","userKey":"lone-user","text":"\\ud83d\\ude00 ok"}' });
    expect(paired.body).toMatchObject({ ok: true });
    expect((await h.customerChat('lone-user')).filter((b) => b.from === 'agent').map((b) => b.text)).toEqual(['\u{1F600} ok']);
  });

  it('refuses such a key nested in an object that takes any field (a sandbox reference) the same way', async () => {
    const rawBody = '{"brandKey":"acme-kakao","text":"hi","reference":{"source":"banner","extra":[{"__proto__":{"polluted":1}}]}}';
    const reply = await h.request('POST', '/sandbox/customers/proto-nested/messages', { rawBody });
    expect([reply.status, reply.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: 'property reference.extra.0.__proto__ should not exist' }]);
    expect(await h.customerChat('proto-nested')).toEqual([]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it.each(['', '  '])('answers a userKey of %j with one message, not one per rule', async (userKey) => {
    const reply = await h.post('/api/agent/send', { brandKey: 'acme-kakao', userKey, text: 'x' });
    expect([reply.status, reply.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: 'userKey must not be blank (empty or only spaces)' }]);
  });

  it('answers malformed JSON with 400 BAD_REQUEST in the envelope', async () => {
    const reply = await h.request('POST', '/api/agent/send', { rawBody: '{"brandKey": "acme-kakao",', token: TOKENS.writer });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ ok: false, code: 'BAD_REQUEST', message: 'the request body is not valid JSON' });
    const scalar = await h.request('POST', '/api/agent/send', { rawBody: 'null', token: TOKENS.writer });
    expect([scalar.status, scalar.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: 'the request body must be a JSON object' }]);
  });

  it.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['form-encoded', { 'content-type': 'application/x-www-form-urlencoded' }],
  ])('answers a %s body with 415 UNSUPPORTED_MEDIA_TYPE, not with every field missing', async (_, headers) => {
    const rawBody = JSON.stringify({ brandKey: 'acme-kakao', userKey: 'x', text: 'hi' });
    const reply = await h.request('POST', '/api/agent/send', { rawBody, headers, token: TOKENS.writer });
    expect(reply.status).toBe(415);
    expect(reply.body).toEqual({ ok: false, code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringContaining('must be JSON (Content-Type: application/json)') });
  });

  it('takes a JSON body with a charset or a +json type', async () => {
    await h.customerWrites('ct-user', { text: 'hi' });
    for (const type of ['application/json; charset=utf-8', 'application/vnd.brandwire+json']) {
      const reply = await h.request('POST', '/api/agent/send', { rawBody: JSON.stringify({ brandKey: 'acme-kakao', userKey: 'ct-user', text: type }), headers: { 'content-type': type } });
      expect([reply.status, reply.body['ok']]).toEqual([200, true]);
    }
  });

  it('answers a body nested 2,000 levels deep with 400 BAD_REQUEST', async () => {
    const nested = '{"a":'.repeat(2000) + '1' + '}'.repeat(2000);
    const rawBody = `{"brandKey":"acme-kakao","userKey":"x","text":"x","extra":${nested}}`;
    const reply = await h.request('POST', '/api/agent/send', { rawBody, token: TOKENS.writer });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ ok: false, code: 'BAD_REQUEST', message: 'the request body nests deeper than 64 levels' });
  });

  it('answers a JSON array body with 400: the body must be a JSON object', async () => {
    for (const rawBody of ['[1,2]', '[]']) {
      const reply = await h.request('POST', '/api/agent/send', { rawBody });
      expect([reply.status, reply.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: 'the request body must be a JSON object' }]);
    }
  });

  it('answers a multipart body with 415 saying the route takes JSON, not with every field missing', async () => {
    const reply = await h.multipart('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'x', text: 'hi' }, []);
    expect(reply.status).toBe(415);
    expect(reply.body).toEqual({
      ok: false,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'POST /api/agent/send takes JSON (Content-Type: application/json); multipart/form-data is for uploads and attachment sends',
    });
  });

  it.each(['/api/agent/send/attachments', '/api/agent/upload/image', '/api/agent/upload/file'])('answers a JSON body to %s with 415 saying it takes multipart/form-data', async (path) => {
    const reply = await h.post(path, { brandKey: 'acme-kakao', brand: 'acme-kakao', userKey: 'x' });
    expect(reply.status).toBe(415);
    expect(reply.body).toEqual({ ok: false, code: 'UNSUPPORTED_MEDIA_TYPE', message: `POST ${path} takes multipart/form-data (fields and files); got application/json` });
  });

  it('answers an oversized body with 413 PAYLOAD_TOO_LARGE', async () => {
    const reply = await h.post('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'x', text: 'z'.repeat(1_100_000) });
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({ ok: false, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers an unknown brandKey as one of another brand: 403 FORBIDDEN naming the field and the channels the key reaches', async () => {
    const reply = await h.post('/api/agent/send', { brandKey: 'no-such-channel', userKey: 'x', text: 'x' });
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({ ok: false, code: 'FORBIDDEN', message: 'this key has no access to brandKey "no-such-channel": its channels are acme-kakao, acme-naver' });
  });
});
