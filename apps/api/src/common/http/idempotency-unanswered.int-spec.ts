import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ShiftableClock, type SandboxMessenger, startSandboxMessenger } from '@brandwire/upstream';
import { type AnswerLosingProxy, startAnswerLosingProxy } from '../../test-support/answer-losing-proxy';
import { ServiceHarness } from '../../test-support/service-harness';

interface SendReply {
  ok: boolean;
  code: string;
  message: string | null;
  serial: string;
}

/**
 * A keyed send whose messenger call got no answer (the connection broke once the messenger had read it) may have
 * been delivered: a retry with the same Idempotency-Key sends the same serial again, so the customer gets the
 * message once, and the journal and the plan learn of it.
 */
describe('a retry of a keyed send whose messenger call got no answer', () => {
  const partnerKey = 'unanswered-send-partner';
  const WRITE = /^\/v1\/write$/;
  let sandbox: SandboxMessenger;
  let proxy: AnswerLosingProxy;
  let h: ServiceHarness;

  const send = (userKey: string, idemKey: string, text: string) =>
    h.request<SendReply>('POST', '/api/agent/send', { headers: { 'idempotency-key': idemKey }, body: { brandKey: 'acme-kakao', userKey, text } });
  const agentBubbles = async (userKey: string) => (await h.customerChat(userKey)).filter((b) => b.from === 'agent').map((b) => ({ serial: b.serial, text: b.text }));
  const journaled = async (userKey: string) =>
    (await h.get<{ messages: Array<{ kind: string; serial?: string; text: string }> }>(`/api/agent/rooms/${userKey}/messages?brand=acme-kakao`)).body.messages
      .filter((m) => m.kind === 'agent')
      .map((m) => ({ serial: m.serial, text: m.text }));
  const used = async () => (await h.get<{ used: number }>('/api/agent/settings/plan?brand=acme-kakao')).body.used;

  beforeAll(async () => {
    sandbox = await startSandboxMessenger({ port: 0, partnerKey, clock: new ShiftableClock(), attachmentHost: 'cdn.test.invalid' });
    proxy = await startAnswerLosingProxy(sandbox.url);
    h = await ServiceHarness.start({ env: { UPSTREAM_URL: proxy.url, UPSTREAM_PARTNER_KEY: partnerKey } });
  });
  const files = mkdtempSync(join(tmpdir(), 'brandwire-unanswered-'));
  afterAll(async () => {
    rmSync(files, { recursive: true, force: true });
    await h.stop();
    await proxy.close();
    await sandbox.close();
  });

  it('is answered ok with the serial the customer got, once, and journaled and billed once', async () => {
    await h.customerWrites('una', { text: 'where is my parcel?' });
    const before = await used();
    proxy.loseAnswers(WRITE);
    const failed = await send('una', 'parcel-1', 'It left the warehouse today.');
    proxy.loseAnswers(undefined);
    expect([failed.status, failed.body.code]).toEqual([502, 'UPSTREAM_UNAVAILABLE']);
    for (let i = 0; i < 50 && (await agentBubbles('una')).length === 0; i++) await sleep(100);
    const delivered = await agentBubbles('una');
    expect(delivered).toEqual([{ serial: expect.stringMatching(/^bw-/) as string, text: 'It left the warehouse today.' }]);
    expect(await journaled('una')).toEqual([]);

    const retry = await send('una', 'parcel-1', 'It left the warehouse today.');
    expect([retry.status, retry.body]).toEqual([200, { ok: true, code: '0', message: null, serial: delivered[0]?.serial }]);
    expect(await agentBubbles('una')).toEqual(delivered);
    expect(await journaled('una')).toEqual(delivered);
    expect(await used()).toBe(before + 1);

    const replay = await send('una', 'parcel-1', 'It left the warehouse today.');
    expect([replay.status, replay.body, replay.headers.get('idempotent-replayed')]).toEqual([200, retry.body, 'true']);
    expect(await agentBubbles('una')).toEqual(delivered);
  });

  it.each([
    ['left the chat', async (userKey: string) => void (await h.post(`/sandbox/customers/${userKey}/end`, { brandKey: 'acme-kakao' }))],
    ['left and came back', async (userKey: string) => {
      await h.post(`/sandbox/customers/${userKey}/end`, { brandKey: 'acme-kakao' });
      await h.customerWrites(userKey, { text: 'me again' });
    }],
  ])('journals and counts it in the consultation it was delivered in, when the customer %s before the retry', async (_, meanwhile) => {
    const userKey = `later-${Math.random().toString(36).slice(2, 8)}`;
    await h.customerWrites(userKey, { text: 'hello' });
    const sessionOf = async (kind: string) =>
      (await h.get<{ messages: Array<{ kind: string; sessionId: string }> }>(`/api/agent/rooms/${userKey}/messages?brand=acme-kakao&max=50`)).body.messages.find((m) => m.kind === kind)?.sessionId;
    const firstSession = await sessionOf('message');
    const before = await used();
    proxy.loseAnswers(WRITE);
    const failed = await send(userKey, `late-${userKey}`, 'Your refund is on its way.');
    proxy.loseAnswers(undefined);
    expect(failed.status).toBe(502);
    for (let i = 0; i < 50 && (await agentBubbles(userKey)).length === 0; i++) await sleep(100);
    await meanwhile(userKey);
    const countedMeanwhile = (await used()) - before;

    const retry = await send(userKey, `late-${userKey}`, 'Your refund is on its way.');
    expect([retry.status, retry.body.ok]).toEqual([200, true]);
    expect(await sessionOf('agent')).toBe(firstSession);
    // the first consultation is counted once, the agent's send having served it (a new one the customer opened is not)
    expect((await used()) - before - countedMeanwhile).toBe(1);
    expect((await agentBubbles(userKey)).map((b) => b.text)).toEqual(['Your refund is on its way.']);
  });

  it('still delivers it on the retry when the first call was lost before the messenger carried it out', async () => {
    await h.customerWrites('unb', { text: 'hello' });
    proxy.loseAnswers(WRITE, false);
    const failed = await send('unb', 'hello-1', 'Hello, how can I help?');
    proxy.loseAnswers(undefined);
    expect([failed.status, failed.body.code]).toEqual([502, 'UPSTREAM_UNAVAILABLE']);
    await sleep(400);
    expect(await agentBubbles('unb')).toEqual([]);
    const retry = await send('unb', 'hello-1', 'Hello, how can I help?');
    expect([retry.status, retry.body.ok]).toEqual([200, true]);
    expect(await agentBubbles('unb')).toEqual([{ serial: retry.body.serial, text: 'Hello, how can I help?' }]);
    expect(await journaled('unb')).toEqual([{ serial: retry.body.serial, text: 'Hello, how can I help?' }]);
  });

  it('holds for an attachment send too: the file reaches the customer once, and the retry answers its item ok', async () => {
    await h.customerWrites('unc', { text: 'send me the invoice' });
    const invoice = join(files, 'invoice.txt');
    writeFileSync(invoice, 'Invoice 2026-118: 42,000 KRW\n');
    const sendFile = () =>
      h.multipart<{ ok: boolean; results: Array<{ kind: string; ok: boolean; code: string; serial: string }> }>(
        '/api/agent/send/attachments',
        { brandKey: 'acme-kakao', userKey: 'unc' },
        [['files', invoice, 'invoice.txt', 'text/plain']],
        undefined,
        { 'idempotency-key': 'invoice-1' },
      );
    proxy.loseAnswers(WRITE);
    const failed = await sendFile();
    proxy.loseAnswers(undefined);
    expect([failed.status, (failed.body as unknown as { code: string }).code]).toEqual([502, 'UPSTREAM_UNAVAILABLE']);
    for (let i = 0; i < 50 && (await agentBubbles('unc')).length === 0; i++) await sleep(100);
    const delivered = await agentBubbles('unc');
    expect(delivered).toHaveLength(1);

    const retry = await sendFile();
    expect([retry.status, retry.body]).toEqual([200, { ok: true, results: [{ kind: 'file', ok: true, code: '0', serial: delivered[0]?.serial, file: 'invoice.txt' }] }]);
    expect((await agentBubbles('unc')).map((b) => b.serial)).toEqual([delivered[0]?.serial]);
  });
});
