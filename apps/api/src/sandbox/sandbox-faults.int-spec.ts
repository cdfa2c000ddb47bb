import { ServiceHarness, TOKENS } from '../test-support/service-harness';

interface SendReply {
  ok: boolean;
  code: string;
  message: string | null;
  serial: string;
}

describe('failures set on the sandbox messenger (POST /sandbox/faults)', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  const send = (userKey: string, text: string) => h.post<SendReply>('/api/agent/send', { brandKey: 'acme-kakao', userKey, text });
  const agentTexts = async (userKey: string) => (await h.customerChat(userKey)).filter((b) => b.from === 'agent').map((b) => b.text);

  it('makes the next sends fail with the code set, passed through as any messenger refusal, then sends go through again', async () => {
    await h.customerWrites('flaky', { text: 'hello' });
    expect(await h.post('/sandbox/faults', { call: '/v1/write', code: '-600', times: 2 })).toMatchObject({ status: 200, body: { ok: true } });
    const failed = await send('flaky', 'first try');
    expect([failed.status, failed.body]).toEqual([
      200,
      { ok: false, code: '-600', message: 'FailedToSendMessageException: a fault set with POST /_sandbox/faults', serial: expect.stringMatching(/^bw-/) as string },
    ]);
    expect((await send('flaky', 'second try')).body.code).toBe('-600');
    expect((await send('flaky', 'third try')).body).toMatchObject({ ok: true, code: '0' });
    expect(await agentTexts('flaky')).toEqual(['third try']);
  });

  it('forgets the failures not used yet on DELETE', async () => {
    await h.customerWrites('calm', { text: 'hello' });
    await h.post('/sandbox/faults', { call: '/v1/write', code: '-512', times: 3 });
    expect(await h.request('DELETE', '/sandbox/faults')).toMatchObject({ status: 200, body: { ok: true } });
    expect((await send('calm', 'hi')).body).toMatchObject({ ok: true, code: '0' });
  });

  it.each([
    [{ call: '/v1/write', code: '-502' }, 'code must be one of -400, -500, -512, -600, -601'],
    [{ call: '/v1/write', code: '-600', times: 0 }, 'times must not be less than 1'],
    [{ call: '/v1/nowhere', code: '-600' }, 'call must be a partner call: /v1/write, '],
  ])('refuses %j with 400 BAD_REQUEST', async (body, message) => {
    const reply = await h.post('/sandbox/faults', body);
    expect([reply.status, reply.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: expect.stringContaining(message) as string }]);
  });

  it('needs a BrandWrite key', async () => {
    const reply = await h.post('/sandbox/faults', { call: '/v1/write', code: '-600' }, TOKENS.reader);
    expect([reply.status, reply.body]).toMatchObject([403, { code: 'FORBIDDEN' }]);
  });
});
