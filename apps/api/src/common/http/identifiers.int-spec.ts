import { ServiceHarness } from '../../test-support/service-harness';

/** Control characters (C0, DEL, C1) in customer keys, brand keys and bot events: refused, naming the field. */
describe('control characters in identifiers', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start();
    await h.customerWrites('ctl', { text: 'hello' });
  });
  afterAll(async () => {
    await h.stop();
  });

  const refusal = (field: string) => ({ ok: false, code: 'BAD_REQUEST', message: `${field} must not contain control characters` });

  it.each([
    ['NUL', 'a\u0000b'],
    ['ESC', 'a\u001b[2Jb'],
    ['a newline', 'a\nb'],
    ['DEL', 'a\u007fb'],
    ['a C1 control (NEL)', 'a\u0085b'],
    ['a C1 control (CSI)', 'a\u009bb'],
  ])('refuses a userKey with %s in a body with 400 BAD_REQUEST naming userKey', async (_what, userKey) => {
    const reply = await h.post('/api/agent/send', { brandKey: 'acme-kakao', userKey, text: 'x' });
    expect([reply.status, reply.body]).toEqual([400, refusal('userKey')]);
  });

  it('refuses a control character in the userKey of a consent request and of the conversations query', async () => {
    const consent = await h.post('/api/agent/personal-info/request', { brandKey: 'acme-kakao', userKey: 'a\u0000b' });
    expect([consent.status, consent.body]).toEqual([400, refusal('userKey')]);
    const conversations = await h.get('/api/agent/conversations?brand=acme-kakao&userKey=a%00b');
    expect([conversations.status, conversations.body]).toEqual([400, refusal('userKey')]);
  });

  it.each([
    ['POST', '/sandbox/customers/a%00b/messages', { brandKey: 'acme-kakao', text: 'x' }],
    ['POST', '/sandbox/customers/a%7Fb/end', { brandKey: 'acme-kakao' }],
    ['GET', '/sandbox/customers/a%1Bb/chat?brand=acme-kakao', undefined],
    ['GET', '/api/agent/rooms/a%00b/messages?brand=acme-kakao', undefined],
    ['GET', '/api/agent/rooms/a%C2%85b/messages?brand=acme-kakao', undefined],
  ])('refuses a control character in the {userKey} of %s %s with 400 naming userKey', async (method, path, body) => {
    const reply = await h.request(method, path, body === undefined ? {} : { body });
    expect([reply.status, reply.body]).toEqual([400, refusal('userKey')]);
  });

  it('refuses a control character in brandKey (bodies) and brand (queries, form fields) with 400 naming the field', async () => {
    const send = await h.post('/api/agent/send', { brandKey: 'acme-kakao\u0000', userKey: 'ctl', text: 'x' });
    expect([send.status, send.body]).toEqual([400, refusal('brandKey')]);
    const sandbox = await h.post('/sandbox/customers/ctl/messages', { brandKey: 'acme\u0085kakao', text: 'x' });
    expect([sandbox.status, sandbox.body]).toEqual([400, refusal('brandKey')]);
    const rooms = await h.get('/api/agent/rooms?brand=acme-kakao%07');
    expect([rooms.status, rooms.body]).toEqual([400, refusal('brand')]);
    const upload = await h.multipart('/api/agent/upload/image', { brand: 'acme\u0007kakao' }, []);
    expect([upload.status, upload.body]).toEqual([400, refusal('brand')]);
  });

  it('refuses a control character in the botEvent of an end with bot, ending nothing', async () => {
    const reply = await h.post('/api/agent/end-with-bot', { brandKey: 'acme-kakao', userKey: 'ctl', botEvent: '\u0000' });
    expect([reply.status, reply.body]).toEqual([400, refusal('botEvent')]);
    const rooms = await h.get<{ rooms: Array<{ userKey: string }> }>('/api/agent/rooms?brand=acme-kakao');
    expect(rooms.body.rooms.map((r) => r.userKey)).toContain('ctl');
  });

  it('takes newlines and tabs in a message text', async () => {
    await h.customerWrites('ctl-text', { text: 'hello' });
    const reply = await h.post('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'ctl-text', text: 'line one\n\tline two' });
    expect([reply.status, reply.body]).toEqual([200, expect.objectContaining({ ok: true, code: '0' })]);
  });
});
