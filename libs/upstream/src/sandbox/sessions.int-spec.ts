import { must } from '../test-support/must';
import { ShiftableClock } from '../clock';
import { SandboxHarness, startSandboxHarness } from '../testing/harness';
import { BOT, KAKAO, customerSays, serial, startHarness } from '../test-support/fixtures';
import { sessionExpiresAt } from '@brandwire/domain';

const HOUR = 3_600_000;

describe('sandbox sessions and callbacks', () => {
  let h: SandboxHarness;
  beforeAll(async () => {
    // long enough for a first callback on a loaded machine, short enough to wait out in the timeout test
    h = await startHarness({ callbackTimeoutMs: 2_000 });
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => {
    h.receiver.clear();
    h.receiver.respondWith(undefined);
  });
  afterEach(async () => {
    await h.receiver.verify();
  });

  it('starts a consultation: /reference first, then /message, with the partner key header and the answers', async () => {
    h.receiver.expect('/reference', (b) => b['user_key'] === 'start-user');
    h.receiver.expect('/message', (b) => b['user_key'] === 'start-user');
    const now = h.clock.now();
    const r = await h.control.customerMessage('start-user', { senderKey: KAKAO, text: 'hello', reference: { extra: 'ad-7' } });
    if (!r.ok) throw new Error(r.message);
    expect(r.callbacks).toEqual([
      { path: '/reference', status: 200, body: { ok: true, seq: 1 } },
      { path: '/message', status: 200, body: { ok: true, seq: 2 } },
    ]);
    const [ref, msg] = h.receiver.received;
    expect(must(ref).headers['x-partner-key']).toBe(h.partnerKey);
    expect(must(ref).body).toEqual({
      user_key: 'start-user',
      sender_key: KAKAO,
      session_id: expect.stringMatching(/^\d+$/),
      time: expect.any(Number),
      app_user_id: null,
      reference: { extra: 'ad-7' },
    });
    expect(must(ref).body['time']).toBeGreaterThanOrEqual(now);
    expect(must(msg).body).toEqual({
      user_key: 'start-user',
      sender_key: KAKAO,
      session_id: must(ref).body['session_id'],
      time: expect.any(Number),
      serial_number: expect.any(Number),
      type: 'text',
      contents: ['hello'],
    });
  });

  it('sends text first, then one media message per type with photos bundled, with increasing serials', async () => {
    const r = await h.control.customerMessage('media-user', {
      senderKey: KAKAO,
      text: 'see these',
      attachments: [{ type: 'photo', caption: 'front' }, { type: 'video' }, { type: 'photo' }],
    });
    expect(r.ok && r.callbacks.map((c) => c.path)).toEqual(['/reference', '/message', '/message', '/message']);
    const msgs = h.receiver.of('/message').map((c) => c.body);
    expect(msgs.map((m) => m['type'])).toEqual(['text', 'photo', 'video']);
    const serials = msgs.map((m) => m['serial_number'] as number);
    expect(must(serials[1])).toBeGreaterThan(must(serials[0]));
    expect(must(serials[2])).toBeGreaterThan(must(serials[1]));
    const host = h.attachmentHost.replace(/\./g, '\\.');
    expect(must(msgs[1])['contents']).toEqual([
      { url: expect.stringMatching(new RegExp(`^https://${host}/[0-9a-f]+\\.jpg$`)), comment: 'front' },
      { url: expect.stringMatching(new RegExp(`^https://${host}/[0-9a-f]+\\.jpg$`)), comment: '' },
    ]);
    expect(must(msgs[2])['contents']).toEqual([{ url: expect.stringMatching(/\.mp4$/), comment: '' }]);
  });

  it('refuses an empty customer message', async () => {
    await expect(h.control.customerMessage('empty-user', { senderKey: KAKAO })).resolves.toEqual({
      ok: false,
      code: 'EMPTY',
      message: 'the message has neither text nor attachments',
    });
  });

  it('refuses a blank customer message and a blank customer key, which no partner call could address', async () => {
    await expect(h.control.customerMessage('blank-text', { senderKey: KAKAO, text: ' \n\t' })).resolves.toEqual({ ok: false, code: 'EMPTY', message: 'text must not be blank (only white space)' });
    await expect(h.control.customerMessage('  ', { senderKey: KAKAO, text: 'hi' })).resolves.toEqual({ ok: false, code: 'BAD_REQUEST', message: 'userKey must not be blank (only spaces)' });
    expect(h.receiver.of('/reference')).toEqual([]);
  });

  it('agent end fires /expired_session (no cause, as the messenger) and returns the session id; nothing in progress -> no session_id', async () => {
    const started = await customerSays(h, 'end-user', 'hi');
    const sessionId = must(h.receiver.of('/reference')[0]).body['session_id'];
    expect(started.ok).toBe(true);
    h.receiver.expect('/expired_session', (b) => b['session_id'] === sessionId);
    await expect(h.messenger.end({ senderKey: KAKAO, userKey: 'end-user' })).resolves.toEqual({ code: '0', message: null, sessionId });
    await expect(h.messenger.end({ senderKey: KAKAO, userKey: 'end-user' })).resolves.toEqual({ code: '0', message: null });
    await h.receiver.verify();
    const [expired] = await h.receiver.waitFor('/expired_session');
    expect(must(expired).body).toEqual({ user_key: 'end-user', sender_key: KAKAO, session_id: sessionId, time: expect.any(Number) });
  });

  it('end_with_bot ends the session; the next consultation carries the hand-off in last_reference', async () => {
    await customerSays(h, 'bot-user', 'hi');
    const first = must(h.receiver.of('/reference')[0]).body;
    const r = await h.messenger.endWithBot({ senderKey: KAKAO, userKey: 'bot-user', botEvent: 'main_menu' });
    expect(r).toEqual({ code: '0', message: null, sessionId: first['session_id'] });
    await h.receiver.waitFor('/expired_session', { where: (b) => b['session_id'] === first['session_id'] });
    await customerSays(h, 'bot-user', 'back again');
    const second = must(h.receiver.of('/reference')[1]).body;
    expect(second['session_id']).not.toBe(first['session_id']);
    // no button opened the second chat: no reference, the last one's fields instead
    expect(second['reference']).toBeUndefined();
    expect(second['last_reference']).toEqual({ extra: null, bot: true, bot_event: 'main_menu', created_at: first['time'] });
    // a chat a button opened carries its reference, and no last one
    await h.messenger.endWithBot({ senderKey: KAKAO, userKey: 'bot-user', botEvent: 'again' });
    await h.receiver.waitFor('/expired_session', { count: 2 });
    const opened = await h.control.customerMessage('bot-user', { senderKey: KAKAO, text: 'from the ad', reference: { extra: 'ad-9' } });
    if (!opened.ok) throw new Error(opened.message);
    const third = must(h.receiver.of('/reference')[2]).body;
    expect([third['reference'], third['last_reference']]).toEqual([{ extra: 'ad-9' }, undefined]);
    await expect(h.messenger.endWithBot({ senderKey: KAKAO, userKey: 'bot-user', botEvent: 'x'.repeat(101) })).resolves.toMatchObject({ code: '-510' });
  });

  it('block ends the session', async () => {
    await customerSays(h, 'block-user', 'hi');
    h.receiver.expect('/expired_session', (b) => b['user_key'] === 'block-user');
    await h.messenger.block({ senderKey: KAKAO, userKey: 'block-user' });
  });

  it('the customer leaving ends the session (customer_left); leaving again is refused', async () => {
    await customerSays(h, 'leave-user', 'hi');
    const r = await h.control.customerLeave('leave-user', { senderKey: KAKAO });
    expect(r.ok && r.callbacks).toEqual([{ path: '/expired_session', status: 200, body: expect.any(Object) }]);
    expect(must(h.receiver.of('/expired_session')[0]).body).toEqual({ user_key: 'leave-user', sender_key: KAKAO, session_id: expect.any(String), time: expect.any(Number) });
    await expect(h.control.customerLeave('leave-user', { senderKey: KAKAO })).resolves.toMatchObject({ ok: false, code: 'NO_SESSION' });
  });

  it('each customer message extends the session', async () => {
    await customerSays(h, 'ext-user', 'hi');
    await h.control.advanceClock((20 * 24 * HOUR) / 1000);
    await customerSays(h, 'ext-user', 'still need help');
    const advanced = await h.control.advanceClock((15 * 24 * HOUR) / 1000);
    expect(advanced.ok).toBe(true);
    expect(h.receiver.of('/expired_session').filter((c) => c.body['user_key'] === 'ext-user')).toEqual([]);
    await expect(h.messenger.writeText({ senderKey: KAKAO, userKey: 'ext-user', serialNumber: serial(), message: 'ok' })).resolves.toMatchObject({ code: '0' });
  });

  it('expiry is also noticed lazily when the shared clock is moved directly', async () => {
    await customerSays(h, 'lazy-user', 'hi');
    h.clock.advance(31 * 24 * HOUR);
    h.receiver.expect('/expired_session', (b) => b['user_key'] === 'lazy-user');
    await expect(h.messenger.writeText({ senderKey: KAKAO, userKey: 'lazy-user', serialNumber: serial(), message: 'x' })).resolves.toMatchObject({ code: '-502' });
  });

  it('records what the partner answered: a 5xx or a timeout is queued for repeat, the callbacks behind it wait', async () => {
    const ofUser = (userKey: string) => (b: Record<string, unknown>) => b['user_key'] === userKey;
    h.receiver.respondWith((cb) => (cb.path === '/reference' ? { status: 500, body: { error: 'boom' } } : undefined));
    const failed = await h.control.customerMessage('fail-user', { senderKey: BOT, text: 'hi' });
    expect(failed.ok && failed.callbacks).toEqual([
      { path: '/reference', status: 500, body: { error: 'boom' }, queued: 'repeat' },
      { path: '/message', status: 0, body: null, queued: 'behind' },
    ]);
    h.receiver.respondWith((cb) => (cb.path === '/message' && cb.body['user_key'] === 'slow-user' ? { status: 200, delayMs: 4_000 } : undefined));
    const slow = await h.control.customerMessage('slow-user', { senderKey: BOT, text: 'hi' });
    expect(slow.ok && slow.callbacks).toEqual([
      { path: '/reference', status: 200, body: expect.any(Object) },
      { path: '/message', status: 0, body: null, error: 'ETIMEDOUT: no answer within 2000 ms', queued: 'repeat' },
    ]);
    h.receiver.respondWith(undefined);
    // both arrive once the partner answers again (the repeats are a second apart at first)
    await h.receiver.waitFor('/message', { where: ofUser('fail-user'), timeoutMs: 5_000 });
    await h.receiver.waitFor('/message', { where: ofUser('slow-user'), count: 2, timeoutMs: 5_000 });
  });

  it('a test expecting a callback that never comes fails', async () => {
    h.receiver.expect('/personal_info');
    await expect(h.receiver.verify(100)).rejects.toThrow('expected callbacks never arrived: /personal_info');
    await expect(h.receiver.waitFor('/deleted', { timeoutMs: 50 })).rejects.toThrow('callback /deleted x1 did not arrive in time');
    h.receiver.clear();
  });
});

describe('sandbox session expiry on a frozen clock', () => {
  let h: SandboxHarness;
  beforeAll(async () => {
    // the base clock stands still, so only advancing moves time: the boundary can be hit to the millisecond
    h = await startSandboxHarness({ clock: new ShiftableClock(0, () => Date.UTC(2026, 10, 21, 8, 15, 42, 123)), channels: { [KAKAO]: {} } });
  });
  afterAll(async () => {
    await h.close();
  });

  it('expires 30 days from the next full hour after the last customer message: not 1 ms before, at that time yes', async () => {
    await customerSays(h, 'exp-user', 'hi');
    const at = sessionExpiresAt(must(h.receiver.of('/message')[0]).body['time'] as number);
    const toGo = at - h.clock.now();
    const before = await h.control.advanceClock((toGo - 1) / 1000);
    expect(before.ok && before.callbacks).toEqual([]);
    await expect(h.messenger.writeText({ senderKey: KAKAO, userKey: 'exp-user', serialNumber: serial(), message: 'still here?' })).resolves.toMatchObject({ code: '0' });
    const after = await h.control.advanceClock(0.001);
    expect(after.ok && after.callbacks).toEqual([{ path: '/expired_session', status: 200, body: expect.any(Object) }]);
    expect(after.ok && after.now).toBeGreaterThanOrEqual(at);
    expect(must(h.receiver.of('/expired_session')[0]).body).toMatchObject({ user_key: 'exp-user' });
    await expect(h.messenger.writeText({ senderKey: KAKAO, userKey: 'exp-user', serialNumber: serial(), message: 'x' })).resolves.toMatchObject({ code: '-502' });
  });

  it('a clock moved 60 days ends the session with /expired_session at its expiry instant, not at the move', async () => {
    await customerSays(h, 'late-user', 'hi');
    const at = sessionExpiresAt(must(h.receiver.of('/message').find((c) => c.body['user_key'] === 'late-user')).body['time'] as number);
    const moved = await h.control.advanceClock((60 * 24 * HOUR) / 1000);
    expect(moved.ok && moved.now).toBeGreaterThan(at + 29 * 24 * HOUR);
    const [expired] = await h.receiver.waitFor('/expired_session', { where: (b) => b['user_key'] === 'late-user' });
    expect(must(expired).body['time']).toBe(at);
  });
});
