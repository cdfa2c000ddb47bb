import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ShiftableClock, type SandboxMessenger, startSandboxMessenger } from '@brandwire/upstream';
import { type AnswerLosingProxy, startAnswerLosingProxy } from '../../test-support/answer-losing-proxy';
import { ServiceHarness } from '../../test-support/service-harness';

interface MessagesReply {
  messages: Array<{ kind: string; text: string }>;
}

/**
 * An end, end-with-bot or block that did not happen (the messenger was out of reach) leaves no trace: the
 * consultation's later end reads as what it was, not as the agent's.
 */
describe('an end the messenger never carried out', () => {
  const partnerKey = 'end-not-done-partner';
  const stateDir = mkdtempSync(join(tmpdir(), 'brandwire-end-not-done-'));
  let port = 0;
  let sandbox: SandboxMessenger;
  let h: ServiceHarness;

  const startSandbox = async () => {
    sandbox = await startSandboxMessenger({ port, partnerKey, clock: new ShiftableClock(), attachmentHost: 'cdn.test.invalid', stateDir });
    port = Number(new URL(sandbox.url).port);
  };
  const lastItem = async (userKey: string) => (await h.get<MessagesReply>(`/api/agent/rooms/${userKey}/messages?brand=acme-kakao&max=1`)).body.messages[0];
  const untilEnded = async (userKey: string) => {
    for (let i = 0; i < 50 && (await lastItem(userKey))?.kind === 'message'; i++) await sleep(100);
    return lastItem(userKey);
  };

  beforeAll(async () => {
    await startSandbox();
    h = await ServiceHarness.start({ env: { UPSTREAM_URL: sandbox.url, UPSTREAM_PARTNER_KEY: partnerKey } });
  });
  afterAll(async () => {
    await h.stop();
    await sandbox.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it.each([
    ['/api/agent/end', {}],
    ['/api/agent/end-with-bot', { botEvent: 'menu' }],
    ['/api/agent/block', {}],
  ])('%s that failed: the customer leaving later is "Consultation ended", and a lapsed session "Session expired"', async (route, extra) => {
    const leaver = `leaver-${route.split('/').pop() ?? ''}`;
    const lapser = `lapser-${route.split('/').pop() ?? ''}`;
    await h.customerWrites(leaver, { text: 'hello' });
    await h.customerWrites(lapser, { text: 'hello' });
    await sandbox.close();
    for (const userKey of [leaver, lapser]) {
      const refused = await h.post<{ ok: boolean; code: string }>(route, { brandKey: 'acme-kakao', userKey, ...extra });
      expect([refused.status, refused.body.code]).toEqual([502, 'UPSTREAM_UNAVAILABLE']);
    }
    await startSandbox();

    expect((await h.post(`/sandbox/customers/${leaver}/end`, { brandKey: 'acme-kakao' })).status).toBe(200);
    expect(await untilEnded(leaver)).toMatchObject({ kind: 'ended', text: 'Consultation ended' });

    expect((await h.post('/sandbox/clock', { advanceSeconds: 31 * 24 * 3600 })).status).toBe(200);
    expect(await untilEnded(lapser)).toMatchObject({ kind: 'expired', text: 'Session expired' });
  });
});

describe('an end whose answer was lost after the messenger carried it out', () => {
  const partnerKey = 'end-answer-lost-partner';
  let sandbox: SandboxMessenger;
  let proxy: AnswerLosingProxy;
  let h: ServiceHarness;

  beforeAll(async () => {
    sandbox = await startSandboxMessenger({ port: 0, partnerKey, clock: new ShiftableClock(), attachmentHost: 'cdn.test.invalid' });
    proxy = await startAnswerLosingProxy(sandbox.url);
    h = await ServiceHarness.start({ env: { UPSTREAM_URL: proxy.url, UPSTREAM_PARTNER_KEY: partnerKey } });
  });
  afterAll(async () => {
    await h.stop();
    await proxy.close();
    await sandbox.close();
  });

  it('is journaled as the agent\'s end when the messenger reports it, though the call failed', async () => {
    await h.customerWrites('lost-answer', { text: 'hello' });
    proxy.loseAnswers(/^\/v1\/(end|end_with_bot|block)$/);
    const failed = await h.post<{ ok: boolean; code: string }>('/api/agent/end', { brandKey: 'acme-kakao', userKey: 'lost-answer' });
    proxy.loseAnswers(undefined);
    expect([failed.status, failed.body.code]).toEqual([502, 'UPSTREAM_UNAVAILABLE']);
    let last: { kind: string; text: string } | undefined;
    for (let i = 0; i < 50; i++) {
      last = (await h.get<MessagesReply>('/api/agent/rooms/lost-answer/messages?brand=acme-kakao&max=1')).body.messages[0];
      if (last?.kind !== 'message') break;
      await sleep(100);
    }
    expect(last).toMatchObject({ kind: 'ended', text: 'Consultation ended by the agent' });
  });
});
