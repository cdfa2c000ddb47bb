import axios from 'axios';
import { SandboxHarness } from '../testing/harness';
import { KAKAO, customerSays, serial, startHarness } from '../test-support/fixtures';

/** The messenger's failures no rule of the sandbox gives, set for the next calls so a partner can test how it copes. */
describe('sandbox faults (POST /_sandbox/faults)', () => {
  let h: SandboxHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const control = (method: 'post' | 'delete', body?: unknown) =>
    axios.request({ method, url: `${h.sandbox.url}/_sandbox/faults`, data: body, headers: { 'X-Partner-Key': h.partnerKey }, validateStatus: () => true });
  const send = (userKey: string, message: string) => h.messenger.writeText({ senderKey: KAKAO, userKey, serialNumber: serial(), message });

  it('answers the next calls of the path with the code set, as many times as set, then as before', async () => {
    await customerSays(h, 'faulty', 'hello');
    expect((await control('post', { call: '/v1/write', code: -600, times: 2 })).data).toEqual({ ok: true });
    expect(await send('faulty', 'one')).toEqual({ code: '-600', message: 'FailedToSendMessageException: a fault set with POST /_sandbox/faults' });
    // another call is not concerned
    await expect(h.messenger.sendRich({ senderKey: KAKAO, userKey: 'faulty', serialNumber: serial(), envelope: { chat_bubble_type: 'TEXT', message: 'rich' } })).resolves.toEqual({ code: '0', message: null });
    expect(await send('faulty', 'two')).toEqual({ code: '-600', message: 'FailedToSendMessageException: a fault set with POST /_sandbox/faults' });
    expect(await send('faulty', 'three')).toEqual({ code: '0', message: null });
    const chat = await h.control.chat('faulty', KAKAO);
    expect(chat.ok && chat.bubbles.filter((b) => b.from === 'agent').map((b) => b.text)).toEqual(['rich', 'three']);
  });

  it.each([-400, -500, -512, -601])('sets %i', async (code) => {
    await customerSays(h, `fault${-code}`, 'hello');
    await control('post', { call: '/v1/write', code });
    expect((await send(`fault${-code}`, 'hi')).code).toBe(String(code));
  });

  it('forgets the faults not yet used on DELETE', async () => {
    await customerSays(h, 'cleared', 'hello');
    await control('post', { call: '/v1/write', code: -601, times: 5 });
    expect((await control('delete')).data).toEqual({ ok: true });
    expect(await send('cleared', 'hi')).toEqual({ code: '0', message: null });
  });

  it.each([
    [{ call: '/v1/nope', code: -600 }, /^call must be a partner call: \/v1\/write, /],
    [{ call: '/v1/write', code: -502 }, /^code must be one of the messenger's failures no rule of the sandbox gives: -400, -500, -512, -600, -601$/],
    [{ call: '/v1/write', code: -600, times: 0 }, /^times must be a whole number from 1 to 100$/],
    [{ call: '/v1/write', code: -600, times: 101 }, /^times must be a whole number from 1 to 100$/],
  ])('refuses %j with 400', async (body, message) => {
    const reply = await control('post', body);
    expect([reply.status, reply.data]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: expect.stringMatching(message) as string }]);
  });
});
