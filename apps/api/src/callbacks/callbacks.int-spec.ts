import { CONSENT_BUBBLE_TEXT } from '@brandwire/domain';
import { senderKeyOf } from '@brandwire/upstream';
import { ServiceHarness, TOKENS } from '../test-support/service-harness';
import { WebhookReceiver } from '../test-support/webhook-receiver';

const DAY_S = 24 * 3600;

interface Summary {
  convId: string;
  userKey: string;
  sessionId: string;
  ended: boolean;
  count: number;
}
interface Conversation {
  ok: boolean;
  convId: string;
  userKey: string;
  sessionId: string;
  ended: boolean;
  lines: Array<{ role: string; text: string; at: string }>;
}

describe('messenger callbacks', () => {
  let h: ServiceHarness;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    h = await ServiceHarness.start();
    receiver = await WebhookReceiver.start();
    const set = await h.request('PUT', '/api/agent/settings/webhook', { token: TOKENS.admin, body: { brandKey: 'acme-kakao', url: receiver.url } });
    expect(set.status).toBe(200);
  });
  afterAll(async () => {
    await h.stop();
    await receiver.stop();
  });

  /** A callback as the real messenger sends it (no sandbox additions), to the service's callback route. */
  function messengerCalls(path: string, body: Record<string, unknown>) {
    return h.request('POST', `/upstream/${path}`, {
      token: null,
      headers: { 'x-partner-key': h.service.runtime.config.upstreamPartnerKey },
      body: { sender_key: senderKeyOf('acme-kakao'), ...body },
    });
  }

  async function lastItem(userKey: string): Promise<{ seq: number; kind: string; text: string; serial?: string; sessionId: string; timestampUnixMs: number }> {
    const reply = await h.get<{ messages: Array<{ seq: number; kind: string; text: string; serial?: string; sessionId: string; timestampUnixMs: number }> }>(
      `/api/agent/rooms/${userKey}/messages?brand=acme-kakao&max=1`,
      TOKENS.reader,
    );
    expect(reply.status).toBe(200);
    const [item] = reply.body.messages;
    if (!item) throw new Error(`no items for ${userKey}`);
    return item;
  }

  function signalsOf(userKey: string) {
    return receiver.accepted.map((r) => r.json).filter((j) => j['userKey'] === userKey);
  }

  async function conversationsOf(userKey: string): Promise<Summary[]> {
    const list = await h.get<Array<{ brand: string; conversations: Summary[] }>>('/api/agent/conversations?brand=acme-kakao', TOKENS.reader);
    expect(list.status).toBe(200);
    return (list.body[0]?.conversations ?? []).filter((c) => c.userKey === userKey);
  }

  async function conversation(convId: string): Promise<Conversation> {
    const reply = await h.get<Conversation>(`/api/agent/conversation?brand=acme-kakao&convId=${encodeURIComponent(convId)}`, TOKENS.reader);
    expect(reply.status).toBe(200);
    return reply.body;
  }

  it('keeps two customers apart after the sandbox messenger restarts on the same data (session ids are never reused)', async () => {
    await h.customerWrites('before-restart', { text: 'my parcel is late' });
    await h.restart();
    await h.customerWrites('after-restart', { text: 'I want a refund' });

    const [before] = await conversationsOf('before-restart');
    const [after] = await conversationsOf('after-restart');
    expect(before?.sessionId).toBeDefined();
    expect(after?.sessionId).toBeDefined();
    expect(after?.sessionId).not.toBe(before?.sessionId);
    expect(after?.convId).not.toBe(before?.convId);
    expect((await conversation(String(before?.convId))).lines.map((l) => [l.role, l.text])).toEqual([
      ['system', 'Consultation started'],
      ['customer', 'my parcel is late'],
    ]);
    expect((await conversation(String(after?.convId))).lines.map((l) => [l.role, l.text])).toEqual([
      ['system', 'Consultation started'],
      ['customer', 'I want a refund'],
    ]);
  });

  it('keeps two customers apart when the messenger hands a session id already used by another customer to a new one', async () => {
    await h.customerWrites('first-holder', { text: 'question one' });
    const { sessionId } = await lastItem('first-holder');
    const now = h.service.runtime.clock.now();
    expect((await messengerCalls('reference', { user_key: 'second-holder', session_id: sessionId, time: now, app_user_id: null, reference: {}, last_reference: null })).status).toBe(200);
    expect((await messengerCalls('message', { user_key: 'second-holder', session_id: sessionId, time: now, serial_number: 7_200_000_000_001, type: 'text', contents: ['question two'] })).status).toBe(200);
    expect((await messengerCalls('expired_session', { user_key: 'second-holder', session_id: sessionId, time: now })).status).toBe(200);

    const [first] = await conversationsOf('first-holder');
    const [second] = await conversationsOf('second-holder');
    expect(first).toMatchObject({ sessionId, convId: sessionId, ended: false });
    expect(second).toMatchObject({ sessionId, ended: true });
    expect(second?.convId).not.toBe(first?.convId);
    expect((await conversation(sessionId)).lines.map((l) => l.text)).toEqual(['Consultation started', 'question one']);
    expect((await conversation(String(second?.convId))).lines.map((l) => l.text)).toEqual(['Consultation started', 'question two', 'Consultation ended']);
  });

  it('journals a customer leaving the chat as ended, not expired, and signals ended', async () => {
    await h.customerWrites('leaver', { text: 'never mind' });
    const left = await h.post('/sandbox/customers/leaver/end', { brandKey: 'acme-kakao' });
    expect(left.status).toBe(200);
    const item = await lastItem('leaver');
    expect(item).toMatchObject({ kind: 'ended', text: 'Consultation ended' });
    await receiver.waitFor(() => signalsOf('leaver').some((s) => s['seq'] === item.seq));
    expect(signalsOf('leaver').find((s) => s['seq'] === item.seq)).toMatchObject({ kind: 'ended', brandKey: 'acme-kakao', userKey: 'leaver' });
  });

  it('without a reason (as the real messenger sends it), an end before the 30 days ran out is ended', async () => {
    await h.customerWrites('quiet-leaver', { text: 'bye' });
    const { sessionId } = await lastItem('quiet-leaver');
    const reply = await messengerCalls('expired_session', { user_key: 'quiet-leaver', session_id: sessionId, time: h.service.runtime.clock.now() + 29 * DAY_S * 1000 });
    expect(reply.status).toBe(200);
    const item = await lastItem('quiet-leaver');
    expect(item).toMatchObject({ kind: 'ended', text: 'Consultation ended', sessionId });
    await receiver.waitFor(() => signalsOf('quiet-leaver').some((s) => s['seq'] === item.seq && s['kind'] === 'ended'));
    const [summary] = await conversationsOf('quiet-leaver');
    expect((await conversation(String(summary?.convId))).lines.at(-1)).toMatchObject({ role: 'system', text: 'Consultation ended' });
  });

  it('without a reason, an end once the 30 days (from the next full hour after the last message) ran out is expired', async () => {
    await h.customerWrites('gone-quiet', { text: 'hello?' });
    const { sessionId } = await lastItem('gone-quiet');
    const reply = await messengerCalls('expired_session', { user_key: 'gone-quiet', session_id: sessionId, time: h.service.runtime.clock.now() + 31 * DAY_S * 1000 });
    expect(reply.status).toBe(200);
    const item = await lastItem('gone-quiet');
    expect(item).toMatchObject({ kind: 'expired', text: 'Session expired', sessionId });
    await receiver.waitFor(() => signalsOf('gone-quiet').some((s) => s['seq'] === item.seq && s['kind'] === 'expired'));
  });

  it('journals and signals a deletion, made in another agent tool, of a bubble that tool sent (not this service)', async () => {
    await h.customerWrites('other-tool', { text: 'hi' });
    const serial = 'other-tool-0001';
    const sent = await h.service.runtime.messenger.writeText({ senderKey: senderKeyOf('acme-kakao'), userKey: 'other-tool', serialNumber: serial, message: 'sent by another tool' });
    expect(sent.code).toBe('0');
    const reply = await h.post<{ ok: boolean; seq: number }>('/sandbox/customers/other-tool/other-tool-delete', { brandKey: 'acme-kakao', serial });
    expect(reply.body.ok).toBe(true);

    const item = await lastItem('other-tool');
    expect(item).toMatchObject({ kind: 'deleted', serial, text: 'Message deleted', seq: reply.body.seq });
    expect(item.seq).toBeGreaterThan(0);
    await receiver.waitFor(() => signalsOf('other-tool').some((s) => s['seq'] === item.seq));
    expect(signalsOf('other-tool').filter((s) => s['kind'] === 'deleted')).toEqual([
      { kind: 'deleted', seq: item.seq, brandKey: 'acme-kakao', userKey: 'other-tool', timestampUnixMs: expect.any(Number), serial },
    ]);

    // the messenger repeating its callback adds nothing
    const again = await messengerCalls('deleted', { user_key: 'other-tool', serial_number: serial, time: h.service.runtime.clock.now() });
    expect(again.body).toEqual({ ok: true, seq: item.seq });
    expect((await lastItem('other-tool')).seq).toBe(item.seq);
  });

  it('answers a deletion callback of an unknown bubble without a customer with 200 and journals nothing', async () => {
    const reply = await messengerCalls('deleted', { serial_number: 'nobody-knows', time: h.service.runtime.clock.now() });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ok: true, seq: 0 });
  });

  it('journals the whole text of a very long customer message, fetched from the messenger', async () => {
    const whole = Array.from({ length: 300 }, (_, i) => `line ${i}: my order arrived damaged.`).join('\n');
    expect(whole.length).toBeGreaterThan(1_000);
    await h.customerWrites('long-writer', { text: whole });
    const item = await lastItem('long-writer');
    expect(item).toMatchObject({ kind: 'message', text: whole });
    const [summary] = await conversationsOf('long-writer');
    expect((await conversation(String(summary?.convId))).lines.at(-1)).toEqual({ role: 'customer', text: whole, at: expect.any(String) });
  });

  it("keeps a long message cut short, marked, when its whole text is not on the messenger's host (never fetched from there)", async () => {
    await h.customerWrites('long-elsewhere', { text: 'hello' });
    const { sessionId } = await lastItem('long-elsewhere');
    const before = receiver.received.length;
    const reply = await messengerCalls('message', {
      user_key: 'long-elsewhere',
      session_id: sessionId,
      time: h.service.runtime.clock.now(),
      serial_number: 7_100_000_000_001,
      type: 'text',
      contents: ['the first part of a long text'],
      attachment: { url: receiver.url.replace('/hooks', '/whole.txt') },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ok: true, seq: expect.any(Number) });
    const item = await lastItem('long-elsewhere');
    expect(item).toMatchObject({ kind: 'message', text: 'the first part of a long text\n[truncated: the whole message could not be fetched]' });
    expect(receiver.received.slice(before).filter((r) => r.json['kind'] === undefined)).toEqual([]);
    await receiver.waitFor(() => signalsOf('long-elsewhere').some((s) => s['seq'] === item.seq && s['kind'] === 'message'));
  });

  it('journals the sandbox clock passing 30 days as expired, and signals expired', async () => {
    await h.customerWrites('sleeper', { text: 'will answer later' });
    const moved = await h.post<{ ok: boolean }>('/sandbox/clock', { advanceSeconds: 31 * DAY_S });
    expect(moved.body.ok).toBe(true);
    await h.customerWrites('someone-else', { text: 'wakes the sandbox' });
    const item = await lastItem('sleeper');
    expect(item).toMatchObject({ kind: 'expired', text: 'Session expired' });
    await receiver.waitFor(() => signalsOf('sleeper').some((s) => s['seq'] === item.seq && s['kind'] === 'expired'));
  });

  it('relays a consent given within 3 days of the request, and not one given later', async () => {
    const consentAfter = async (userKey: string, afterMs: number) => {
      const request = await lastItem(userKey);
      expect(request.text).toBe(CONSENT_BUBBLE_TEXT);
      const time = request.timestampUnixMs + afterMs;
      return messengerCalls('personal_info', { user_key: userKey, session_id: request.sessionId, nickname: 'Hana', phone_number: '010-1111-2222', time });
    };
    for (const userKey of ['consent-in-time', 'consent-late']) {
      await h.customerWrites(userKey, { text: 'hi' });
      expect((await h.post('/api/agent/personal-info/request', { brandKey: 'acme-kakao', userKey })).body).toMatchObject({ ok: true });
    }
    expect((await consentAfter('consent-late', 3 * DAY_S * 1000 + 60_000)).body).toEqual({ ok: true });
    expect((await consentAfter('consent-in-time', 3 * DAY_S * 1000 - 60_000)).body).toEqual({ ok: true });
    await receiver.waitFor((a) => a.some((d) => d.json['kind'] === 'personal_info' && d.json['userKey'] === 'consent-in-time'));
    expect(signalsOf('consent-late').filter((j) => j['kind'] === 'personal_info')).toEqual([]);
    expect(signalsOf('consent-in-time').filter((j) => j['kind'] === 'personal_info')).toEqual([expect.objectContaining({ nickname: 'Hana', phoneNumber: '010-1111-2222' })]);
  });

  it('relays a consent once when the messenger repeats its callback, also at the same time', async () => {
    await h.customerWrites('consent-twice', { text: 'hi' });
    expect((await h.post('/api/agent/personal-info/request', { brandKey: 'acme-kakao', userKey: 'consent-twice' })).body).toMatchObject({ ok: true });
    const { sessionId } = await lastItem('consent-twice');
    const consent = () => messengerCalls('personal_info', { user_key: 'consent-twice', session_id: sessionId, nickname: 'Yuna', phone_number: '010-5555-6666' });
    expect((await consent()).body).toEqual({ ok: true });
    const repeats = await Promise.all([consent(), consent()]);
    expect(repeats.map((r) => [r.status, r.body])).toEqual([
      [200, { ok: true }],
      [200, { ok: true }],
    ]);
    // the customer's later message reaches the webhook after every consent result reserved before it
    const later = await h.customerWrites('consent-twice', { text: 'done' });
    await receiver.waitFor(() => signalsOf('consent-twice').some((s) => s['seq'] === later));
    expect(signalsOf('consent-twice').filter((j) => j['kind'] === 'personal_info')).toEqual([expect.objectContaining({ nickname: 'Yuna', phoneNumber: '010-5555-6666' })]);
  });

  it.each([
    ['beyond any date', 1e300],
    ['not whole milliseconds', 1.5],
    ['negative', -1],
    ['a string', '1700000000000'],
  ])('refuses a callback whose time is %s with 400 BAD_REQUEST, journaling nothing', async (_, time) => {
    const before = await h.get<{ messages: unknown[] }>('/api/agent/rooms/bad-time/messages?brand=acme-kakao', TOKENS.reader);
    const reply = await messengerCalls('message', { user_key: 'bad-time', session_id: '777', serial_number: 1, type: 'text', contents: ['hi'], time });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ ok: false, code: 'BAD_REQUEST', message: expect.stringContaining('time must be epoch milliseconds') });
    const after = await h.get<{ messages: unknown[] }>('/api/agent/rooms/bad-time/messages?brand=acme-kakao', TOKENS.reader);
    expect(after.body.messages).toEqual(before.body.messages);
  });

  it("takes a partner's reference whatever keys it chose, constructor and __proto__ among them, and relays it as it came", async () => {
    const before = receiver.received.length;
    const rawBody = `{"sender_key":"${senderKeyOf('acme-kakao')}","user_key":"campaign","session_id":"9801","time":1700000000000,"app_user_id":null,"reference":{"constructor":"campaign-7","__proto__":{"polluted":1}},"last_reference":null}`;
    const reply = await h.request('POST', '/upstream/reference', { token: null, headers: { 'x-partner-key': h.service.runtime.config.upstreamPartnerKey, 'content-type': 'application/json' }, rawBody });
    expect([reply.status, reply.body]).toEqual([200, { ok: true, seq: expect.any(Number) }]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    await receiver.waitFor(() => signalsOf('campaign').some((s) => s['kind'] === 'reference'));
    const signal = receiver.received.slice(before).map((r) => r.json).find((j) => j['userKey'] === 'campaign' && j['kind'] === 'reference');
    expect(JSON.stringify(signal?.['reference'])).toBe('{"constructor":"campaign-7","__proto__":{"polluted":1}}');
  });

  it('journals a message and a new consultation once when the messenger repeats their callbacks, also at the same time', async () => {
    const reference = { user_key: 'repeated', session_id: '9901', time: 1_700_000_000_000, reference: {}, last_reference: null };
    const message = { user_key: 'repeated', session_id: '9901', time: 1_700_000_000_100, serial_number: 8_000_000_001, type: 'text', contents: ['only once please'] };
    const firstReference = await messengerCalls('reference', reference);
    const again = await messengerCalls('reference', reference);
    const messages = await Promise.all([messengerCalls('message', message), messengerCalls('message', message), messengerCalls('message', message)]);
    expect(again.body).toEqual(firstReference.body);
    expect(messages.map((m) => [m.status, m.body])).toEqual(Array.from({ length: 3 }, () => [200, messages[0]?.body]));
    // another message of the same customer, with its own serial_number, is journaled
    expect((await messengerCalls('message', { ...message, serial_number: 8_000_000_002, contents: ['a second one'] })).status).toBe(200);
    const room = await h.get<{ messages: Array<{ kind: string; text: string }> }>('/api/agent/rooms/repeated/messages?brand=acme-kakao', TOKENS.reader);
    expect(room.body.messages.map((m) => [m.kind, m.text])).toEqual([
      ['message', 'a second one'],
      ['message', 'only once please'],
      ['reference', 'Consultation started'],
    ]);
  });

  it.each([
    ['message', 'an empty contents', { session_id: '9902', user_key: 'empty-contents', type: 'text', contents: [] }, 'contents must hold the message'],
    ['message', 'a user_key over 20 characters', { session_id: '9903', user_key: 'u'.repeat(21), type: 'text', contents: ['hi'] }, 'user_key must be at most 20 characters'],
    ['reference', 'a user_key over 20 characters', { session_id: '9904', user_key: 'u'.repeat(21), reference: {} }, 'user_key must be at most 20 characters'],
  ])('refuses a %s callback with %s with 400 BAD_REQUEST, journaling nothing', async (path, _, body, message) => {
    const reply = await messengerCalls(path, body);
    expect([reply.status, reply.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: expect.stringContaining(message) }]);
    const room = await h.get<{ messages: unknown[] }>(`/api/agent/rooms/${String(body.user_key)}/messages?brand=acme-kakao`, TOKENS.reader);
    expect(room.body.messages).toEqual([]);
  });

  it('lists a customer whose new consultation was not reported (its /reference lost or late) once their message comes', async () => {
    const now = h.service.runtime.clock.now();
    const rooms = async () => (await h.get<{ rooms: Array<{ userKey: string; ended: boolean }> }>('/api/agent/rooms?brand=acme-kakao&max=300', TOKENS.reader)).body.rooms.filter((r) => r.userKey === 'unreported');
    expect((await messengerCalls('reference', { user_key: 'unreported', session_id: '9911', time: now - 300, reference: {} })).status).toBe(200);
    expect((await messengerCalls('expired_session', { user_key: 'unreported', session_id: '9911', time: now - 200 })).status).toBe(200);
    expect(await rooms()).toEqual([]);
    const message = { user_key: 'unreported', session_id: '9912', time: now - 100, serial_number: 8_000_000_011, type: 'text', contents: ['are you there?'] };
    expect((await messengerCalls('message', message)).status).toBe(200);
    expect(await rooms()).toEqual([expect.objectContaining({ userKey: 'unreported', ended: false })]);
    expect(await lastItem('unreported')).toMatchObject({ kind: 'message', sessionId: '9912', text: 'are you there?' });
  });

  it('journals a new consultation whose app_user_id is a number, as a string', async () => {
    const reply = await messengerCalls('reference', { user_key: 'numeric-app-user', session_id: '4242', app_user_id: 12345, reference: {}, last_reference: null });
    expect(reply.status).toBe(200);
    const item = await lastItem('numeric-app-user');
    expect(item).toMatchObject({ kind: 'reference', sessionId: '4242' });
    await receiver.waitFor((a) => a.some((d) => d.json['userKey'] === 'numeric-app-user' && d.json['kind'] === 'reference'));
  });

  it('relays a consent result that names only the session, to the customer of that consultation; an unknown session is 400', async () => {
    const onlySession = (body: Record<string, unknown>) =>
      h.request('POST', '/upstream/personal_info', { token: null, headers: { 'x-partner-key': h.service.runtime.config.upstreamPartnerKey }, body });
    await h.customerWrites('consent-by-session', { text: 'hi' });
    expect((await h.post('/api/agent/personal-info/request', { brandKey: 'acme-kakao', userKey: 'consent-by-session' })).body).toMatchObject({ ok: true });
    const { sessionId } = await lastItem('consent-by-session');
    expect((await onlySession({ session_id: sessionId, nickname: 'Bora', phone_number: '010-3333-4444' })).body).toEqual({ ok: true });
    await receiver.waitFor((a) => a.some((d) => d.json['kind'] === 'personal_info' && d.json['userKey'] === 'consent-by-session'));
    expect(signalsOf('consent-by-session').filter((j) => j['kind'] === 'personal_info')).toEqual([expect.objectContaining({ brandKey: 'acme-kakao', nickname: 'Bora' })]);

    const unknown = await onlySession({ session_id: '999999999', nickname: 'Bora', phone_number: '010-3333-4444' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ ok: false, code: 'BAD_REQUEST', message: expect.stringContaining('names no consultation') });
  });
});
