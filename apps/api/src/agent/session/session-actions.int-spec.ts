import { setTimeout as sleep } from 'node:timers/promises';
import { ServiceHarness, TOKENS } from '../../test-support/service-harness';

interface Reply {
  ok: boolean;
  code: string;
  message: string | null;
  sessionId?: string | null;
  serial?: string;
  greeting?: { ok: boolean; code: string; message: string | null; serial: string };
}

interface MessagesReply {
  messages: Array<{ kind: string; text: string; sessionId: string; serial?: string }>;
}

describe('end, end-with-bot, block and unblock', () => {
  let h: ServiceHarness;
  const kinds = async (userKey: string) =>
    (await h.get<MessagesReply>(`/api/agent/rooms/${userKey}/messages?brand=acme-kakao`)).body.messages.map((m) => [m.kind, m.text]);
  // The messenger reports ends asynchronously; give its callback time to arrive before counting items.
  const settle = () => sleep(300);

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('ends with a greeting sent first, journals the end once, and refuses later sends with -502', async () => {
    await h.customerWrites('amy', { text: 'thanks, that is all' });
    const ended = await h.post<Reply>('/api/agent/end', { brandKey: 'acme-kakao', userKey: 'amy', greeting: 'Have a nice day!' });
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({
      ok: true,
      code: '0',
      message: null,
      sessionId: expect.any(String),
      serial: expect.any(String),
      greeting: { ok: true, code: '0', message: null, serial: expect.any(String) },
    });
    expect(ended.body.greeting?.serial).toBe(ended.body.serial);
    await settle();

    expect(await kinds('amy')).toEqual([
      ['ended', 'Consultation ended by the agent'],
      ['agent', 'Have a nice day!'],
      ['message', 'thanks, that is all'],
      ['reference', 'Consultation started'],
    ]);
    const chat = await h.customerChat('amy');
    expect(chat.find((b) => b.from === 'agent')).toMatchObject({ text: 'Have a nice day!', serial: ended.body.serial });

    const late = await h.post<Reply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'amy', text: 'one more thing' });
    expect(late.body).toMatchObject({ ok: false, code: '-502' });
    expect((await h.get<{ rooms: Array<{ userKey: string }> }>('/api/agent/rooms?brand=acme-kakao')).body.rooms.map((r) => r.userKey)).not.toContain('amy');
  });

  it('starts a new consultation (reference) when the customer writes after the end', async () => {
    await h.customerWrites('amy', { text: 'actually, one more question' });
    const messages = (await h.get<MessagesReply>('/api/agent/rooms/amy/messages?brand=acme-kakao')).body.messages;
    expect(messages.slice(0, 3).map((m) => m.kind)).toEqual(['message', 'reference', 'ended']);
    expect(messages[1]?.sessionId).not.toBe(messages[2]?.sessionId);
    expect((await h.post<Reply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'amy', text: 'sure' })).body.ok).toBe(true);
  });

  it('answers an end without a consultation in progress with ok and no session', async () => {
    const reply = await h.post<Reply>('/api/agent/end', { brandKey: 'acme-kakao', userKey: 'nobody-here' });
    expect(reply.body).toEqual({ ok: true, code: '0', message: null, sessionId: null });
  });

  it('ends even when the messenger refuses the greeting, and says so in greeting', async () => {
    await h.customerWrites('dan', { text: 'bye then' });
    const reply = await h.post<Reply>('/api/agent/end', { brandKey: 'acme-kakao', userKey: 'dan', greeting: 'g'.repeat(1001) });
    expect(reply.body).toEqual({
      ok: true,
      code: '0',
      message: null,
      sessionId: expect.any(String),
      greeting: { ok: false, code: '-506', message: expect.any(String), serial: expect.any(String) },
    });
    await settle();
    expect((await kinds('dan')).map(([k]) => k)).toEqual(['ended', 'message', 'reference']);
    expect((await h.customerChat('dan')).filter((b) => b.from === 'agent')).toEqual([]);
    expect((await h.post<Reply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'dan', text: 'still there?' })).body.code).toBe('-502');
  });

  it('takes a null greeting as none: ends without sending one', async () => {
    await h.customerWrites('nell', { text: 'thanks' });
    const reply = await h.post<Reply>('/api/agent/end', { brandKey: 'acme-kakao', userKey: 'nell', greeting: null });
    expect(reply.body).toEqual({ ok: true, code: '0', message: null, sessionId: expect.any(String) });
    expect((await h.customerChat('nell')).filter((b) => b.from === 'agent')).toEqual([]);
  });

  it('greets and ends once when the same end with greeting comes three times at once', async () => {
    await h.customerWrites('tri', { text: 'bye for now' });
    const replies = await Promise.all(
      ['bye 1', 'bye 2', 'bye 3'].map((greeting) => h.post<Reply>('/api/agent/end', { brandKey: 'acme-kakao', userKey: 'tri', greeting })),
    );
    expect(replies.filter((r) => r.body.sessionId).map((r) => r.body.greeting?.ok)).toEqual([true]);
    expect(replies.filter((r) => !r.body.sessionId).map((r) => r.body.greeting?.code)).toEqual(['-502', '-502']);
    expect((await h.customerChat('tri')).filter((b) => b.from === 'agent')).toHaveLength(1);
    await settle();
    expect((await kinds('tri')).filter(([k]) => k === 'ended')).toHaveLength(1);
  });

  it.each(['', '  \n '])('refuses a blank greeting (%j) with 400 before anything ends', async (greeting) => {
    await h.customerWrites('eve', { text: 'still here' });
    const reply = await h.post<Reply>('/api/agent/end', { brandKey: 'acme-kakao', userKey: 'eve', greeting });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ ok: false, code: 'BAD_REQUEST', message: 'greeting must not be blank; leave it out to end without a greeting' });
    expect((await h.post<Reply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'eve', text: 'still in progress' })).body.ok).toBe(true);
  });

  it('answers an end with a greeting to a customer without a consultation: the greeting fails with -502', async () => {
    const reply = await h.post<Reply>('/api/agent/end', { brandKey: 'acme-kakao', userKey: 'ghost', greeting: 'bye' });
    expect(reply.body).toMatchObject({ ok: true, sessionId: null, greeting: { ok: false, code: '-502' } });
    expect(reply.body.serial).toBeUndefined();
  });

  it('hands off to the bot with its event and journals the end once', async () => {
    await h.customerWrites('ben', { text: 'I need the FAQ' });
    const reply = await h.post<Reply>('/api/agent/end-with-bot', { brandKey: 'acme-kakao', userKey: 'ben', botEvent: 'faq_start' });
    expect(reply.body).toEqual({ ok: true, code: '0', message: null, sessionId: expect.any(String) });
    await settle();
    expect((await kinds('ben')).filter(([k]) => k === 'ended')).toEqual([['ended', 'Consultation handed off to the bot: faq_start']]);
    expect((await h.post<Reply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'ben', text: 'x' })).body.code).toBe('-502');
  });

  it.each([
    ['101 letters', 'e'.repeat(101)],
    ['101 emoji', '\u{1F600}'.repeat(101)],
    ['51 hearts with their variation selector (102 characters)', '\u2764\uFE0F'.repeat(51)],
  ])('refuses a bot event of %s with 400 naming botEvent, before the messenger is called', async (_, botEvent) => {
    await h.customerWrites('bot-long', { text: 'hi' });
    const reply = await h.post('/api/agent/end-with-bot', { brandKey: 'acme-kakao', userKey: 'bot-long', botEvent });
    expect([reply.status, reply.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: expect.stringContaining('botEvent must be at most 100 characters') }]);
    expect((await h.post<Reply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'bot-long', text: 'still here' })).body.ok).toBe(true);
  });

  it('hands off with a bot event of 100 emoji: the service and the messenger count characters alike', async () => {
    await h.customerWrites('bot-emoji', { text: 'hi' });
    const reply = await h.post<Reply>('/api/agent/end-with-bot', { brandKey: 'acme-kakao', userKey: 'bot-emoji', botEvent: '\u{1F600}'.repeat(100) });
    expect(reply.body).toMatchObject({ ok: true, code: '0' });
  });

  it('blocks: the consultation ends and sends fail with -511 until unblocked', async () => {
    await h.customerWrites('cat', { text: 'spam spam' });
    const blocked = await h.post<Reply>('/api/agent/block', { brandKey: 'acme-kakao', userKey: 'cat' });
    expect(blocked.body).toMatchObject({ ok: true, code: '0', sessionId: expect.any(String) });
    await settle();
    expect((await kinds('cat')).filter(([k]) => k === 'ended')).toEqual([['ended', 'Consultation ended: customer blocked']]);
    expect((await h.post<Reply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'cat', text: 'hello?' })).body).toMatchObject({ ok: false, code: '-511' });

    const unblocked = await h.post<Reply>('/api/agent/unblock', { brandKey: 'acme-kakao', userKey: 'cat' });
    expect(unblocked.body).toEqual({ ok: true, code: '0', message: null });
    await h.customerWrites('cat', { text: 'sorry about that' });
    expect((await h.post<Reply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'cat', text: 'no problem' })).body.ok).toBe(true);
  });

  it.each(['end', 'end-with-bot', 'block', 'unblock'])('refuses a BrandRead key on /api/agent/%s with 403 FORBIDDEN', async (path) => {
    const reply = await h.post(`/api/agent/${path}`, { brandKey: 'acme-kakao', userKey: 'amy' }, TOKENS.reader);
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ ok: false, code: 'FORBIDDEN' });
  });
});
