import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execInSqliteFile } from '@brandwire/store/testing';
import { SandboxControlClient, type SandboxMessenger, ShiftableClock, senderKeyOf, startSandboxMessenger } from '@brandwire/upstream';
import { writePng } from '../../media/test-support/images';
import { type AnswerLosingProxy, startAnswerLosingProxy } from '../../test-support/answer-losing-proxy';
import { type BuiltService, startBuiltService, stopBuiltService } from '../../test-support/built-service';
import { TEST_SEED, TOKENS } from '../../test-support/service-harness';
import { WebhookReceiver } from '../../test-support/webhook-receiver';

const PARTNER_KEY = 'idempotency-crash-partner';
const SENDER_KEY = senderKeyOf('acme-kakao');

interface Reply {
  status: number;
  body: Record<string, unknown>;
  replayed: string | null;
}

/**
 * A keyed send cut off by a crash of the service (SIGKILL) mid-send: the retry with the same Idempotency-Key, on the
 * service started again, takes the key over and answers what happened, never delivering the message twice.
 */
describe('a retry of a keyed send that a crash of the service cut off', () => {
  const dir = mkdtempSync(join(tmpdir(), 'brandwire-idem-crash-'));
  let sandbox: SandboxMessenger;
  let proxy: AnswerLosingProxy;
  let control: SandboxControlClient;
  let receiver: WebhookReceiver;
  let env: Record<string, string>;
  let service: BuiltService | undefined;

  const start = async () => (service = await startBuiltService(env));
  const crash = async () => {
    await stopBuiltService((service as BuiltService).child, 'SIGKILL');
    service = undefined;
  };
  const call = async (method: string, path: string, body?: unknown, idemKey?: string, token: string = TOKENS.writer): Promise<Reply> => {
    const response = await fetch(`${(service as BuiltService).url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}), ...(idemKey ? { 'idempotency-key': idemKey } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown>, replayed: response.headers.get('idempotent-replayed') };
  };
  const send = (userKey: string, idemKey: string, text: string) => call('POST', '/api/agent/send', { brandKey: 'acme-kakao', userKey, text }, idemKey);
  const agentBubbles = async (userKey: string) => {
    const chat = await control.chat(userKey, SENDER_KEY);
    if (!chat.ok) throw new Error(`no chat: ${JSON.stringify(chat)}`);
    return chat.bubbles.filter((b) => b.from === 'agent').map((b) => ({ serial: b.serial, text: b.text }));
  };
  const bubbleKinds = async (userKey: string) => {
    const chat = await control.chat(userKey, SENDER_KEY);
    if (!chat.ok) throw new Error(`no chat: ${JSON.stringify(chat)}`);
    return chat.bubbles.filter((b) => b.from === 'agent').map((b) => ({ serial: b.serial, kind: b.kind }));
  };
  const waitForBubbles = async (userKey: string, count: number) => {
    for (let i = 0; i < 200 && (await agentBubbles(userKey)).length < count; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  };
  /** What a crash between journaling a send and keeping its answer leaves. */
  const forgetAnswer = (idemKey: string) =>
    execInSqliteFile(env['BRANDWIRE_DATA_DIR'] as string, `update idempotency_keys set status = null, response = null where idem_key = '${idemKey}'`);
  const sendAttachments = async (userKey: string, idemKey: string, text: string, files: ReadonlyArray<{ path: string; name: string; type: string }>) => {
    const form = new FormData();
    form.append('brandKey', 'acme-kakao');
    form.append('userKey', userKey);
    form.append('text', text);
    for (const file of files) form.append('files', new Blob([readFileSync(file.path)], { type: file.type }), file.name);
    const response = await fetch(`${(service as BuiltService).url}/api/agent/send/attachments`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${TOKENS.writer}`, 'idempotency-key': idemKey },
    });
    return { status: response.status, body: (await response.json()) as { ok: boolean; results: Array<{ kind: string; ok: boolean; serial: string }> } };
  };
  /** A photo, a file that is no image though named .png (its item fails), and an invoice: the text goes on the photo. */
  const photoBrokenAndInvoice = async (name: string) => {
    const broken = join(dir, `${name}-broken.png`);
    writeFileSync(broken, 'this is not a png');
    const invoice = join(dir, `${name}-invoice.txt`);
    writeFileSync(invoice, 'Invoice 2026-119\n');
    return [
      { path: await writePng(join(dir, `${name}-photo.png`), 64, 64), name: 'photo.png', type: 'image/png' },
      { path: broken, name: 'broken.png', type: 'image/png' },
      { path: invoice, name: 'invoice.txt', type: 'text/plain' },
    ];
  };
  const journaled = async (userKey: string) =>
    ((await call('GET', `/api/agent/rooms/${userKey}/messages?brand=acme-kakao`)).body['messages'] as Array<{ kind: string; serial?: string; text: string }>)
      .filter((m) => m.kind === 'agent')
      .map((m) => ({ serial: m.serial, text: m.text }));
  const used = async () => (await call('GET', '/api/agent/settings/plan?brand=acme-kakao')).body['used'];
  const twoPhotosAndInvoice = async (name: string) => {
    const invoice = join(dir, `${name}-invoice.txt`);
    writeFileSync(invoice, 'Invoice 2026-200\n');
    return [
      { path: await writePng(join(dir, `${name}-one.png`), 64, 64), name: 'one.png', type: 'image/png' },
      { path: await writePng(join(dir, `${name}-two.png`), 64, 64), name: 'two.png', type: 'image/png' },
      { path: invoice, name: 'invoice.txt', type: 'text/plain' },
    ];
  };
  const customerWrites = async (userKey: string) => expect((await control.customerMessage(userKey, { senderKey: SENDER_KEY, text: 'where is my parcel?' })).ok).toBe(true);

  beforeAll(async () => {
    // the messenger outlives the service, as it does in production
    sandbox = await startSandboxMessenger({ port: 0, partnerKey: PARTNER_KEY, clock: new ShiftableClock(), attachmentHost: 'cdn.test.invalid' });
    proxy = await startAnswerLosingProxy(sandbox.url);
    control = new SandboxControlClient({ baseUrl: sandbox.url, partnerKey: PARTNER_KEY });
    receiver = await WebhookReceiver.start();
    const seed = join(dir, 'seed.json');
    writeFileSync(seed, JSON.stringify(TEST_SEED));
    env = { UPSTREAM_URL: proxy.url, UPSTREAM_PARTNER_KEY: PARTNER_KEY, BRANDWIRE_SEED: seed, BRANDWIRE_DATA_DIR: join(dir, 'data') };
  }, 60_000);

  afterEach(async () => {
    proxy.holdAnswers(undefined);
    proxy.refuseNext(undefined);
    if (service) await crash();
  });

  afterAll(async () => {
    control.close();
    await receiver.stop();
    await proxy.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers ok with the serial the customer got, once, and journals and counts it once, when the crash came while the messenger delivered it', async () => {
    await start();
    await customerWrites('crash-a');
    const before = await used();
    proxy.holdAnswers(/^\/v1\/write$/);
    const cut = send('crash-a', 'parcel-a', 'It left the warehouse today.').catch((error: unknown) => error);
    for (let i = 0; i < 100 && (await agentBubbles('crash-a')).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const delivered = await agentBubbles('crash-a');
    expect(delivered).toEqual([{ serial: expect.stringMatching(/^bw-/) as string, text: 'It left the warehouse today.' }]);
    await crash();
    expect(await cut).toHaveProperty('message', 'fetch failed');
    proxy.holdAnswers(undefined);

    await start();
    const retry = await send('crash-a', 'parcel-a', 'It left the warehouse today.');
    expect([retry.status, retry.body]).toEqual([200, { ok: true, code: '0', message: null, serial: delivered[0]?.serial }]);
    expect(await agentBubbles('crash-a')).toEqual(delivered);
    expect(await journaled('crash-a')).toEqual(delivered);
    expect(await used()).toBe(Number(before) + 1);

    const replay = await send('crash-a', 'parcel-a', 'It left the warehouse today.');
    expect([replay.status, replay.body, replay.replayed]).toEqual([200, retry.body, 'true']);
    // another body under the key is still refused
    expect((await send('crash-a', 'parcel-a', 'Another text')).body['code']).toBe('IDEMPOTENCY_CONFLICT');
  }, 60_000);

  it('answers ok without sending or journaling again when the crash came after the journal took it, before its answer was kept', async () => {
    await start();
    await customerWrites('crash-b');
    const first = await send('crash-b', 'parcel-b', 'Your refund is on its way.');
    expect(first.body['ok']).toBe(true);
    const before = await used();
    await crash();
    // what a crash between journaling the send and keeping its answer leaves
    execInSqliteFile(env['BRANDWIRE_DATA_DIR'] as string, "update idempotency_keys set status = null, response = null where idem_key = 'parcel-b'");

    await start();
    const retry = await send('crash-b', 'parcel-b', 'Your refund is on its way.');
    expect([retry.status, retry.body]).toEqual([200, first.body]);
    const once = [{ serial: first.body['serial'], text: 'Your refund is on its way.' }];
    expect(await agentBubbles('crash-b')).toEqual(once);
    expect(await journaled('crash-b')).toEqual(once);
    expect(await used()).toBe(before);
  }, 60_000);

  it('answers an attachment send ok item by item without sending again, when the crash came after the journal took it', async () => {
    await start();
    await customerWrites('crash-d');
    const invoice = join(dir, 'invoice.txt');
    writeFileSync(invoice, 'Invoice 2026-118: 42,000 KRW\n');
    const sendFile = async () => {
      const form = new FormData();
      form.append('brandKey', 'acme-kakao');
      form.append('userKey', 'crash-d');
      form.append('text', 'Here is your invoice.');
      form.append('files', new Blob([readFileSync(invoice)], { type: 'text/plain' }), 'invoice.txt');
      const response = await fetch(`${(service as BuiltService).url}/api/agent/send/attachments`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${TOKENS.writer}`, 'idempotency-key': 'invoice-d' },
      });
      return { status: response.status, body: (await response.json()) as { ok: boolean; results: Array<{ serial: string }> } };
    };
    const first = await sendFile();
    expect(first.body.ok).toBe(true);
    const bubbles = await agentBubbles('crash-d');
    expect(bubbles).toHaveLength(2);
    await crash();
    execInSqliteFile(env['BRANDWIRE_DATA_DIR'] as string, "update idempotency_keys set status = null, response = null where idem_key = 'invoice-d'");

    await start();
    const retry = await sendFile();
    expect([retry.status, retry.body]).toEqual([200, first.body]);
    expect(await agentBubbles('crash-d')).toEqual(bubbles);
    expect((await journaled('crash-d')).map((m) => m.serial).sort()).toEqual(first.body.results.map((r) => r.serial).sort());
  }, 60_000);

  it('answers a consent request ok, not -520, when the crash came while the messenger delivered its bubble', async () => {
    await start();
    expect((await call('PUT', '/api/agent/settings/webhook', { brandKey: 'acme-kakao', url: receiver.url }, undefined, TOKENS.admin)).status).toBe(200);
    await customerWrites('crash-e');
    proxy.holdAnswers(/personal_info/);
    const request = () => call('POST', '/api/agent/personal-info/request', { brandKey: 'acme-kakao', userKey: 'crash-e' }, 'consent-e');
    const cut = request().catch((error: unknown) => error);
    await waitForBubbles('crash-e', 1);
    const delivered = await agentBubbles('crash-e');
    expect(delivered).toHaveLength(1);
    await crash();
    expect(await cut).toHaveProperty('message', 'fetch failed');
    proxy.holdAnswers(undefined);

    await start();
    const retry = await request();
    expect([retry.status, retry.body]).toEqual([200, { ok: true, code: '0', message: null, serial: delivered[0]?.serial }]);
    expect(await agentBubbles('crash-e')).toEqual(delivered);
    expect((await journaled('crash-e')).map((m) => m.serial)).toEqual([delivered[0]?.serial]);
    // the consultation's one request is used: another gets -520
    const another = await call('POST', '/api/agent/personal-info/request', { brandKey: 'acme-kakao', userKey: 'crash-e' }, 'consent-e2');
    expect(another.body['code']).toBe('-520');
  }, 60_000);

  it('leaves the next consultation free to request consent when a consent request cut off by a crash is retried in it', async () => {
    await start();
    expect((await call('PUT', '/api/agent/settings/webhook', { brandKey: 'acme-kakao', url: receiver.url }, undefined, TOKENS.admin)).status).toBe(200);
    await customerWrites('crash-k');
    proxy.holdAnswers(/personal_info/);
    const request = (idemKey?: string) => call('POST', '/api/agent/personal-info/request', { brandKey: 'acme-kakao', userKey: 'crash-k' }, idemKey);
    const cut = request('consent-k').catch((error: unknown) => error);
    await waitForBubbles('crash-k', 1);
    const delivered = await agentBubbles('crash-k');
    await crash();
    await cut;
    proxy.holdAnswers(undefined);

    await start();
    expect((await call('POST', '/api/agent/end', { brandKey: 'acme-kakao', userKey: 'crash-k' })).body['ok']).toBe(true);
    await customerWrites('crash-k');
    const retry = await request('consent-k');
    expect([retry.status, retry.body]).toEqual([200, { ok: true, code: '0', message: null, serial: delivered[0]?.serial }]);
    expect(await agentBubbles('crash-k')).toEqual(delivered);
    // the new consultation never had a consent bubble: its one request is still to be made
    const fresh = await request();
    expect(fresh.body).toMatchObject({ ok: true, code: '0' });
    expect(await agentBubbles('crash-k')).toHaveLength(2);
  }, 60_000);

  it('gives each bubble of an attachment send its serial of the first attempt, whichever images failed, after a crash once journaled', async () => {
    await start();
    await customerWrites('crash-f');
    const files = await photoBrokenAndInvoice('f');
    const first = await sendAttachments('crash-f', 'mix-f', 'Photos and invoice.', files);
    expect(first.body.results.map((r) => [r.kind, r.ok])).toEqual([['image', true], ['image', false], ['file', true]]);
    const bubbles = await bubbleKinds('crash-f');
    expect(bubbles.map((b) => b.kind)).toEqual(['rich', 'file']);
    await crash();
    forgetAnswer('mix-f');

    await start();
    const retry = await sendAttachments('crash-f', 'mix-f', 'Photos and invoice.', files);
    expect([retry.status, retry.body]).toEqual([200, first.body]);
    expect(await bubbleKinds('crash-f')).toEqual(bubbles);
    expect((await journaled('crash-f')).map((m) => m.serial).sort()).toEqual(bubbles.map((b) => b.serial).sort());
  }, 60_000);

  it('delivers each bubble of an attachment send once when the crash came while the messenger delivered its file', async () => {
    await start();
    await customerWrites('crash-g');
    const files = await photoBrokenAndInvoice('g');
    proxy.holdAnswers(/^\/v1\/write$/);
    const cut = sendAttachments('crash-g', 'mix-g', 'Photos and invoice.', files).catch((error: unknown) => error);
    await waitForBubbles('crash-g', 2);
    const bubbles = await bubbleKinds('crash-g');
    expect(bubbles.map((b) => b.kind)).toEqual(['rich', 'file']);
    await crash();
    expect(await cut).toHaveProperty('message', 'fetch failed');
    proxy.holdAnswers(undefined);

    await start();
    const retry = await sendAttachments('crash-g', 'mix-g', 'Photos and invoice.', files);
    expect(retry.body.results.map((r) => [r.kind, r.ok, r.serial])).toEqual([
      ['image', true, bubbles[0]?.serial],
      ['image', false, expect.stringMatching(/^bw-/) as string],
      ['file', true, bubbles[1]?.serial],
    ]);
    expect(await bubbleKinds('crash-g')).toEqual(bubbles);
    const journal = await journaled('crash-g');
    expect(journal.map((m) => [m.serial, m.text])).toEqual([
      [bubbles[1]?.serial, expect.stringContaining('invoice.txt') as string],
      [bubbles[0]?.serial, expect.stringContaining('Photos and invoice.') as string],
    ]);
  }, 60_000);

  it('puts the text on the image that carried it before the crash, not on one whose upload failed then and works in the retry', async () => {
    await start();
    await customerWrites('crash-h');
    const files = await twoPhotosAndInvoice('h');
    proxy.refuseNext(/^\/v1\/upload\/image$/);
    proxy.holdAnswers(/^\/v1\/write$/);
    const cut = sendAttachments('crash-h', 'photos-h', 'Here are the photos.', files).catch((error: unknown) => error);
    await waitForBubbles('crash-h', 2);
    const first = await agentBubbles('crash-h');
    expect(first.map((b) => b.text)).toEqual(['Here are the photos.', 'invoice.txt']);
    await crash();
    await cut;
    proxy.holdAnswers(undefined);

    await start();
    const retry = await sendAttachments('crash-h', 'photos-h', 'Here are the photos.', files);
    expect(retry.body.results.map((r) => [r.kind, r.ok])).toEqual([['image', true], ['image', true], ['file', true]]);
    const after = await agentBubbles('crash-h');
    expect(after.filter((b) => b.text === 'Here are the photos.')).toHaveLength(1);
    expect(after.slice(0, 2)).toEqual(first);
  }, 60_000);

  it('sends an image delivered before the crash again as it was, without uploading it again, and journals it', async () => {
    await start();
    await customerWrites('crash-i');
    const files = await twoPhotosAndInvoice('i');
    proxy.holdAnswers(/^\/v1\/rich$/);
    const cut = sendAttachments('crash-i', 'photos-i', 'Your photos.', files).catch((error: unknown) => error);
    await waitForBubbles('crash-i', 1);
    const first = await agentBubbles('crash-i');
    await crash();
    await cut;
    proxy.holdAnswers(undefined);

    await start();
    // an upload in the retry fails: the image delivered before needs none
    proxy.refuseNext(/^\/v1\/upload\/image$/);
    const retry = await sendAttachments('crash-i', 'photos-i', 'Your photos.', files);
    expect(retry.body.results.map((r) => [r.kind, r.ok])).toEqual([['image', true], ['image', false], ['file', true]]);
    expect(retry.body.results[0]?.serial).toBe(first[0]?.serial);
    const after = await agentBubbles('crash-i');
    expect(after.filter((b) => b.text === 'Your photos.')).toHaveLength(1);
    expect((await journaled('crash-i')).map((m) => m.serial)).toContain(first[0]?.serial);
  }, 60_000);

  it('counts an attachment send answered from the journal in the consultation it was delivered in, not the customer\'s next one', async () => {
    await start();
    await customerWrites('crash-j');
    const invoice = join(dir, 'j-invoice.txt');
    writeFileSync(invoice, 'Invoice 2026-201\n');
    const files = [{ path: invoice, name: 'invoice.txt', type: 'text/plain' }];
    const first = await sendAttachments('crash-j', 'invoice-j', 'Your invoice.', files);
    expect(first.body.ok).toBe(true);
    await crash();
    forgetAnswer('invoice-j');
    await start();
    expect((await call('POST', '/api/agent/end', { brandKey: 'acme-kakao', userKey: 'crash-j' })).body['ok']).toBe(true);
    await customerWrites('crash-j');
    const before = await used();
    const retry = await sendAttachments('crash-j', 'invoice-j', 'Your invoice.', files);
    expect([retry.status, retry.body]).toEqual([200, first.body]);
    expect(await used()).toBe(before);
  }, 60_000);

  it('still answers 409 to a retry while the first request is being answered', async () => {
    await start();
    await customerWrites('crash-c');
    proxy.holdAnswers(/^\/v1\/write$/);
    const held = send('crash-c', 'parcel-c', 'One moment please.').catch((error: unknown) => error);
    for (let i = 0; i < 100 && (await agentBubbles('crash-c')).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const retry = await send('crash-c', 'parcel-c', 'One moment please.');
    expect([retry.status, retry.body]).toEqual([
      409,
      { ok: false, code: 'IDEMPOTENCY_CONFLICT', message: 'a request with this Idempotency-Key is still being processed; retry once it has answered' },
    ]);
    await crash();
    await held;
  }, 60_000);
});
