import http from 'node:http';
import { AddressInfo } from 'node:net';
import { SandboxControlClient } from '../client/control-client';
import { ShiftableClock } from '../clock';
import { CallbackReceiver } from '../testing/callback-receiver';
import { KAKAO } from '../test-support/fixtures';
import { must } from '../test-support/must';
import { RepeatPolicy } from './callback-repeats';
import { SandboxMessenger, startSandboxMessenger } from './server';

const PARTNER_KEY = 'repeat-partner-key';
const HOUR = 3_600_000;
/** short waits, so that a test sees several repeats; the 24 h bound as by default */
const FAST: RepeatPolicy = { firstDelayMs: 20, maxDelayMs: 80, giveUpAfterMs: 24 * HOUR };

interface Running {
  sandbox: SandboxMessenger;
  control: SandboxControlClient;
  notices: string[];
  close(): Promise<void>;
}

async function startSandbox(callbackUrl: string, repeats: RepeatPolicy = FAST): Promise<Running> {
  const notices: string[] = [];
  const sandbox = await startSandboxMessenger({
    partnerKey: PARTNER_KEY,
    clock: new ShiftableClock(),
    attachmentHost: 'talk-cdn.sandbox.invalid',
    callbackRepeats: repeats,
    callbackTimeoutMs: 1_000,
    onNotice: (m) => notices.push(m),
  });
  const control = new SandboxControlClient({ baseUrl: sandbox.url, partnerKey: PARTNER_KEY });
  await control.setPartner({ callbackUrl });
  await control.setChannel(KAKAO, { type: 'kakao', chatbotBuilder: false });
  return {
    sandbox,
    control,
    notices,
    close: async () => {
      control.close();
      await sandbox.close();
    },
  };
}

/** A port nothing listens on (taken, then freed), for a partner that is down. */
async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ofUser = (userKey: string) => (b: Record<string, unknown>) => b['user_key'] === userKey;
describe('the sandbox repeats a callback that got no 2xx answer', () => {
  let receiver: CallbackReceiver;
  let running: Running | undefined;
  beforeEach(async () => {
    receiver = await CallbackReceiver.start();
  });
  afterEach(async () => {
    await running?.close();
    running = undefined;
    await receiver.close();
  });

  it('a partner answering 503 five times gets the callbacks after the repeats, in order; later ones of the customer wait behind', async () => {
    let refusals = 5;
    receiver.respondWith(() => (refusals-- > 0 ? { status: 503, body: { ok: false } } : undefined));
    running = await startSandbox(receiver.url);
    const first = await running.control.customerMessage('ann', { senderKey: KAKAO, text: 'hello' });
    expect(first.ok && first.callbacks).toEqual([
      { path: '/reference', status: 503, body: { ok: false }, queued: 'repeat' },
      { path: '/message', status: 0, body: null, queued: 'behind' },
    ]);
    // written while the /reference is still repeated: answered at once, sent after it
    const second = await running.control.customerMessage('ann', { senderKey: KAKAO, text: 'anyone?' });
    expect(second.ok && second.callbacks).toEqual([{ path: '/message', status: 0, body: null, queued: 'behind' }]);

    await receiver.waitFor('/message', { count: 2 });
    expect(receiver.received.map((c) => [c.path, c.body['contents'] ?? null])).toEqual([
      ...Array.from({ length: 6 }, () => ['/reference', null]),
      ['/message', ['hello']],
      ['/message', ['anyone?']],
    ]);
    const sessions = new Set(receiver.received.map((c) => c.body['session_id']));
    expect(sessions.size).toBe(1);
  });

  it('a partner that is down (connection refused) gets the callbacks in order once it listens; other customers are not held up', async () => {
    const port = await freePort();
    running = await startSandbox(`http://127.0.0.1:${port}`);
    const down = await running.control.customerMessage('bea', { senderKey: KAKAO, text: 'is this on?' });
    expect(down.ok && down.callbacks).toEqual([
      { path: '/reference', status: 0, body: null, error: expect.stringMatching(/^ECONNREFUSED/), queued: 'repeat' },
      { path: '/message', status: 0, body: null, queued: 'behind' },
    ]);
    await sleep(100);
    const up = await CallbackReceiver.start({ port });
    try {
      await up.waitFor('/message', { where: ofUser('bea') });
      expect(up.paths()).toEqual(['/reference', '/message']);
      expect(must(up.received[1]).body['session_id']).toBe(must(up.received[0]).body['session_id']);
      // the agent's send to the session the partner now knows goes through
      const other = await running.control.customerMessage('cid', { senderKey: KAKAO, text: 'me too' });
      expect(other.ok && other.callbacks.map((c) => c.status)).toEqual([200, 200]);
    } finally {
      await up.close();
    }
  });

  it('a 4xx answer (401 wrong partner key, 400) is final: not repeated, the next callback goes on', async () => {
    receiver.respondWith((cb) => (cb.path === '/reference' ? { status: 401, body: { ok: false, code: 'UNAUTHORIZED' } } : { status: 400, body: { ok: false } }));
    running = await startSandbox(receiver.url);
    const r = await running.control.customerMessage('dee', { senderKey: KAKAO, text: 'hi' });
    expect(r.ok && r.callbacks).toEqual([
      { path: '/reference', status: 401, body: { ok: false, code: 'UNAUTHORIZED' } },
      { path: '/message', status: 400, body: { ok: false } },
    ]);
    await sleep(10 * FAST.maxDelayMs);
    expect(receiver.paths()).toEqual(['/reference', '/message']);
  });

  it('stops repeating after 24 hours of its clock: the callback is dropped (with a notice) and the next one is sent', async () => {
    receiver.respondWith((cb) => (cb.path === '/reference' ? { status: 503 } : undefined));
    running = await startSandbox(receiver.url);
    await running.control.customerMessage('eve', { senderKey: KAKAO, text: 'hello' });
    await receiver.waitFor('/reference', { count: 2 });
    await running.control.advanceClock((24 * HOUR) / 1000);
    await receiver.waitFor('/message');
    expect(receiver.of('/reference').length).toBeGreaterThanOrEqual(3);
    expect(running.notices).toEqual([expect.stringMatching(/^the \/reference callback of customer eve got no 2xx answer for 24 h of the sandbox's clock: dropped$/)]);
  });

  it('close() drops the pending repeats: nothing is sent after it', async () => {
    receiver.respondWith(() => ({ status: 503 }));
    const stopping = await startSandbox(receiver.url);
    running = stopping;
    const r = await stopping.control.customerMessage('fay', { senderKey: KAKAO, text: 'hello' });
    expect(r.ok && r.callbacks.map((c) => c.queued)).toEqual(['repeat', 'behind']);
    await receiver.waitFor('/reference', { count: 2 });
    await stopping.close();
    const sent = receiver.received.length;
    await sleep(10 * FAST.maxDelayMs);
    expect(receiver.received.length).toBe(sent);
    expect(stopping.notices).toEqual(['2 callback(s) waiting to be repeated were dropped: the sandbox keeps no callbacks across a stop']);
  });
});
