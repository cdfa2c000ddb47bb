import { ServiceHarness, TOKENS } from '../test-support/service-harness';

interface Plan {
  consultations: number;
  used: number;
  remaining: number;
}

describe('billing of consultations', () => {
  let h: ServiceHarness;
  const plan = async () => (await h.get<Plan>('/api/agent/settings/plan?brand=acme-kakao', TOKENS.reader)).body;
  const send = (userKey: string, text = 'hello') => h.post<{ ok: boolean; code: string; message: string }>('/api/agent/send', { brandKey: 'acme-kakao', userKey, text });

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('counts a consultation once on the first send of the day; further sends that day are free', async () => {
    await h.customerWrites('b1', { text: 'hi' });
    expect(await plan()).toMatchObject({ consultations: 1000, used: 0, remaining: 1000 });
    expect((await send('b1')).body.ok).toBe(true);
    expect((await send('b1')).body.ok).toBe(true);
    expect(await plan()).toMatchObject({ used: 1, remaining: 999 });
  });

  it('counts the same consultation again on the next day', async () => {
    await h.post('/sandbox/clock', { advanceSeconds: 24 * 3600 });
    await h.customerWrites('b1', { text: 'still there?' });
    expect((await send('b1')).body.ok).toBe(true);
    expect((await plan()).used).toBe(2);
  });

  it('never counts refused sends, lookups or ends', async () => {
    expect((await send('never-wrote')).body.code).toBe('-502');
    await h.get('/api/agent/rooms?brand=acme-kakao');
    await h.get('/api/agent/rooms/b1/messages?brand=acme-kakao');
    await h.post('/api/agent/end', { brandKey: 'acme-kakao', userKey: 'b1' });
    expect((await plan()).used).toBe(2);
  });

  it('refuses sending with 402 PLAN_EXHAUSTED when the count is used up, until an Admin raises the plan', async () => {
    const lowered = await h.request<Plan>('PUT', '/api/agent/settings/plan', { token: TOKENS.admin, body: { brandKey: 'acme-kakao', consultations: 3 } });
    expect(lowered.body).toMatchObject({ consultations: 3, used: 2, remaining: 1 });

    await h.customerWrites('b2', { text: 'hi' });
    await h.customerWrites('b3', { text: 'hi' });
    expect((await send('b2')).body.ok).toBe(true);
    const refused = await send('b3');
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({ ok: false, code: 'PLAN_EXHAUSTED', message: expect.stringContaining('used up') });
    expect(refused.body.message).toContain('plan of 3');
    expect((await h.customerChat('b3')).filter((b) => b.from === 'agent')).toEqual([]);
    // a consultation already served today still gets its messages
    expect((await send('b2', 'follow-up')).body.ok).toBe(true);

    const me = await h.get<{ brands: Array<{ channels: Array<{ key: string; plan: Plan }> }> }>('/api/agent/me');
    expect(me.body.brands[0]?.channels.find((c) => c.key === 'acme-kakao')?.plan).toEqual({ consultations: 3, used: 3, remaining: 0 });

    // an end with a greeting the plan cannot pay for still ends; the greeting says why it was not sent
    await h.customerWrites('b4', { text: 'bye' });
    const ended = await h.post('/api/agent/end', { brandKey: 'acme-kakao', userKey: 'b4', greeting: 'Thanks!' });
    expect(ended.body).toEqual({
      ok: true,
      code: '0',
      message: null,
      sessionId: expect.any(String),
      greeting: { ok: false, code: 'PLAN_EXHAUSTED', message: expect.stringContaining('used up') },
    });
    expect((await h.customerChat('b4')).filter((b) => b.from === 'agent')).toEqual([]);
    const rooms = await h.get<{ rooms: Array<{ userKey: string }> }>('/api/agent/rooms?brand=acme-kakao');
    expect(rooms.body.rooms.map((r) => r.userKey)).not.toContain('b4');

    await h.request('PUT', '/api/agent/settings/plan', { token: TOKENS.admin, body: { brandKey: 'acme-kakao', consultations: 10 } });
    expect((await send('b3')).body.ok).toBe(true);
  });

  it('lets only Admin keys change the plan (403 FORBIDDEN for BrandWrite)', async () => {
    const reply = await h.request('PUT', '/api/agent/settings/plan', { token: TOKENS.writer, body: { brandKey: 'acme-kakao', consultations: 5 } });
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ ok: false, code: 'FORBIDDEN', message: expect.stringContaining('Admin') });
  });
});
