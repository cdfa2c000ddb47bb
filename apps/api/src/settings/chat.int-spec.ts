import { ServiceHarness, TOKENS } from '../test-support/service-harness';

interface Toggle {
  ok: boolean;
  code: string;
  message: string | null;
  brand: string;
  active: boolean;
}

describe('chat on and off (/api/agent/settings/chat)', () => {
  let h: ServiceHarness;
  const toggle = (action: 'activate' | 'deactivate', token: string = TOKENS.admin, brandKey = 'acme-kakao') =>
    h.post<Toggle>(`/api/agent/settings/chat/${action}`, { brandKey }, token);
  const chatState = async (brand = 'acme-kakao') => (await h.get<{ active: boolean }>(`/api/agent/settings/chat?brand=${brand}`, TOKENS.reader)).body.active;
  const send = (userKey: string, text: string) => h.post<{ ok: boolean; code: string; message: string | null }>('/api/agent/send', { brandKey: 'acme-kakao', userKey, text });
  const rooms = async () => (await h.get<{ rooms: Array<{ userKey: string }> }>('/api/agent/rooms?brand=acme-kakao', TOKENS.reader)).body.rooms.map((r) => r.userKey);

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('reads the chat state with any key of the brand (on by default)', async () => {
    for (const token of [TOKENS.reader, TOKENS.writer, TOKENS.admin]) {
      const reply = await h.get('/api/agent/settings/chat?brand=acme-kakao', token);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ ok: true, brand: 'acme-kakao', active: true });
    }
  });

  it.each([
    ['BrandWrite', TOKENS.writer],
    ['BrandRead', TOKENS.reader],
  ])('refuses a %s key on activate and deactivate with 403 FORBIDDEN naming Admin', async (scope, token) => {
    for (const action of ['activate', 'deactivate'] as const) {
      const reply = await toggle(action, token);
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual({
        ok: false,
        code: 'FORBIDDEN',
        message: `this key has scope ${scope}; POST /api/agent/settings/chat/${action} needs Admin or higher`,
      });
    }
    expect(await chatState()).toBe(true);
  });

  it('refuses another brand and an unknown brand, and a body without brandKey', async () => {
    const other = await toggle('deactivate', TOKENS.admin, 'globex-kakao');
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('brandKey "globex-kakao"') });
    const unknown = await toggle('deactivate', TOKENS.admin, 'no-such-channel');
    expect(unknown.status).toBe(403);
    expect(unknown.body).toMatchObject({ ok: false, code: 'FORBIDDEN', message: expect.stringContaining('brandKey "no-such-channel"') });
    const empty = await h.post('/api/agent/settings/chat/deactivate', {}, TOKENS.admin);
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ ok: false, code: 'BAD_REQUEST', message: expect.stringContaining('brandKey') });
    const read = await h.get('/api/agent/settings/chat', TOKENS.reader);
    expect(read.status).toBe(400);
    expect(read.body).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('brand') });
  });

  it('deactivated: sends answer -508, and a new customer gets the notice but no consultation', async () => {
    await h.customerWrites('in-session', { text: 'hello' });
    expect((await send('in-session', 'before')).body).toMatchObject({ ok: true, code: '0' });

    const off = await toggle('deactivate');
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ ok: true, code: '0', message: null, brand: 'acme-kakao', active: false });
    expect(await chatState()).toBe(false);
    const profile = await h.get<{ profile: { status: string } }>('/api/agent/settings/profile?brand=acme-kakao', TOKENS.reader);
    expect(profile.body.profile.status).toBe('inactive');

    const refused = await send('in-session', 'while off');
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ ok: false, code: '-508', message: expect.stringMatching(/^InvalidProfileChatStatusException/) });

    const turnedAway = await h.post('/sandbox/customers/newcomer/messages', { brandKey: 'acme-kakao', text: 'anyone?' });
    expect(turnedAway.body).toEqual({ ok: false, code: 'CHAT_DEACTIVATED', message: expect.any(String) });
    const texts = await h.get<{ messages: { autoAnswers: { S1: string } } }>('/api/agent/settings/system-messages?brand=acme-kakao', TOKENS.reader);
    expect((await h.customerChat('newcomer')).map((b) => [b.from, b.kind, b.text])).toEqual([['system', 'notice', texts.body.messages.autoAnswers.S1]]);
    expect(await rooms()).not.toContain('newcomer');

    // deactivating twice is fine
    expect((await toggle('deactivate')).body).toMatchObject({ ok: true, active: false });
    // the other channel is untouched
    expect(await chatState('acme-naver')).toBe(true);
  });

  it('re-activated: the customer starts a consultation and sends go out again', async () => {
    const on = await toggle('activate');
    expect(on.body).toEqual({ ok: true, code: '0', message: null, brand: 'acme-kakao', active: true });
    expect(await chatState()).toBe(true);

    await h.customerWrites('newcomer', { text: 'now?' });
    expect(await rooms()).toContain('newcomer');
    expect((await send('newcomer', 'yes, we are here')).body).toMatchObject({ ok: true, code: '0' });
    expect((await send('in-session', 'back')).body).toMatchObject({ ok: true, code: '0' });
    expect((await h.customerChat('newcomer')).filter((b) => b.from === 'agent').map((b) => b.text)).toEqual(['yes, we are here']);
  });
});
