import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execInSqliteFile } from '@brandwire/store/testing';
import { DEFAULT_UPLOAD_DIR } from '../../media';
import { BLUE, RED, imageDir, writeNoise, writePng } from '../../media/test-support/images';
import { ServiceHarness, TOKENS } from '../../test-support/service-harness';

interface SendReply {
  ok: boolean;
  code: string;
  serial: string;
}

describe('Idempotency-Key on sends', () => {
  let h: ServiceHarness;
  const send = (idemKey: string, text: string, token: string = TOKENS.writer) =>
    h.request<SendReply>('POST', '/api/agent/send', { token, headers: { 'idempotency-key': idemKey }, body: { brandKey: 'acme-kakao', userKey: 'i1', text } });
  const agentBubbles = async () => (await h.customerChat('i1')).filter((b) => b.from === 'agent');

  beforeAll(async () => {
    h = await ServiceHarness.start();
    await h.customerWrites('i1', { text: 'hello' });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('returns the first answer to a retry with the same key and body, without a second delivery or count', async () => {
    const first = await send('order-1', 'your order shipped');
    const used = (await h.get<{ used: number }>('/api/agent/settings/plan?brand=acme-kakao')).body.used;
    const retry = await send('order-1', 'your order shipped');
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await agentBubbles()).toHaveLength(1);
    expect((await h.get<{ used: number }>('/api/agent/settings/plan?brand=acme-kakao')).body.used).toBe(used);
  });

  it('answers the same key with a different body with 409 IDEMPOTENCY_CONFLICT', async () => {
    const reply = await send('order-1', 'something else');
    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({ ok: false, code: 'IDEMPOTENCY_CONFLICT' });
    expect(await agentBubbles()).toHaveLength(1);
  });

  it('keeps keys apart per API key', async () => {
    const other = await send('order-1', 'your order shipped', TOKENS.admin);
    expect(other.body.ok).toBe(true);
    expect(await agentBubbles()).toHaveLength(2);
  });

  it('answers a send whose answer could not be kept, and gives a retry that answer, never sending twice', async () => {
    execInSqliteFile(h.dataDir, "CREATE TRIGGER refuse_answers BEFORE UPDATE OF status ON idempotency_keys BEGIN SELECT RAISE(ABORT, 'the disk refused the write'); END;");
    const warnings = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const before = (await agentBubbles()).length;
      const first = await send('unkept-1', 'this answer is not kept');
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ ok: true, code: '0', serial: expect.stringMatching(/^bw-/) });
      const retry = await send('unkept-1', 'this answer is not kept');
      expect([retry.status, retry.body, retry.headers.get('idempotent-replayed')]).toEqual([200, first.body, 'true']);
      // another body under the key is still refused
      expect((await send('unkept-1', 'another text')).status).toBe(409);
      expect((await agentBubbles()).map((b) => b.serial).slice(before)).toEqual([first.body.serial]);
      expect(warnings.mock.calls).toEqual([[expect.stringMatching(/Idempotency-Key "unkept-1" could not be kept: the disk refused the write/)]]);
    } finally {
      warnings.mockRestore();
      execInSqliteFile(h.dataDir, 'DROP TRIGGER refuse_answers');
    }
  });

  it('keeps the key of an attachment send that failed after a bubble reached the customer, so the retry does not send that bubble again', async () => {
    const files = await imageDir();
    try {
      const invoice = files.file('invoice.txt');
      writeFileSync(invoice, 'Invoice 2026-121\n');
      const sendInvoice = () =>
        h.multipart<{ ok: boolean; code?: string; results: Array<{ kind: string; ok: boolean; serial: string }> }>(
          '/api/agent/send/attachments',
          { brandKey: 'acme-kakao', userKey: 'i1', text: 'Here is your invoice.' },
          [['files', invoice, 'invoice.txt', 'text/plain']],
          undefined,
          { 'idempotency-key': 'note-fails-1' },
        );
      const before = (await agentBubbles()).length;
      // the database refuses to note the second bubble's serial (busy past its wait, a full disk, a lost connection)
      execInSqliteFile(
        h.dataDir,
        "CREATE TRIGGER refuse_second_note BEFORE UPDATE OF attempt_serials ON idempotency_keys WHEN json_array_length(json_extract(NEW.attempt_serials, '$.serials')) >= 2 BEGIN SELECT RAISE(ABORT, 'the disk refused the write'); END;",
      );
      try {
        const failed = await sendInvoice();
        expect(failed.status).toBeGreaterThanOrEqual(500);
      } finally {
        execInSqliteFile(h.dataDir, 'DROP TRIGGER refuse_second_note');
      }
      expect((await agentBubbles()).slice(before).map((b) => b.text)).toEqual(['Here is your invoice.']);

      const retry = await sendInvoice();
      expect([retry.status, retry.body.results.map((r) => [r.kind, r.ok])]).toEqual([200, [['text', true], ['file', true]]]);
      expect((await agentBubbles()).slice(before).map((b) => b.kind)).toEqual(['text', 'file']);
    } finally {
      await files.cleanup();
    }
  });

  it('frees the key when the request failed validation, so the corrected retry runs', async () => {
    const bad = await h.request('POST', '/api/agent/send', { headers: { 'idempotency-key': 'order-2' }, body: { brandKey: 'acme-kakao', userKey: 'i1' } });
    expect(bad.status).toBe(400);
    const good = await send('order-2', 'fixed');
    expect(good.body.ok).toBe(true);
  });

  it('refuses a malformed key with 400', async () => {
    const reply = await send('x'.repeat(256), 'hi');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('Idempotency-Key') });
  });

  it('holds on the consent request and on attachments too: the retry gets the first answer, not a second bubble', async () => {
    await h.customerWrites('i2', { text: 'hello' });
    // somewhere for the consent result to go (the request is refused without it)
    expect((await h.request('PUT', '/api/agent/settings/webhook', { token: TOKENS.admin, body: { brandKey: 'acme-kakao', url: 'http://127.0.0.1:9/bw' } })).status).toBe(200);
    const consent = () => h.request<SendReply>('POST', '/api/agent/personal-info/request', { headers: { 'idempotency-key': 'consent-1' }, body: { brandKey: 'acme-kakao', userKey: 'i2' } });
    const asked = await consent();
    const again = await consent();
    expect(asked.body).toMatchObject({ ok: true, code: '0' });
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(again.body).toEqual(asked.body);

    const files = await imageDir();
    // noise of a random width, so that no other upload (of a test running meanwhile) is likely to have this size;
    // files of that size already in the shared upload folder are not this test's
    const photo = await writeNoise(files.file('idem.png'), 300 + Math.floor(Math.random() * 200), 240, 'png');
    const size = statSync(photo).size;
    const ofThisSize = () => readdirSync(DEFAULT_UPLOAD_DIR).filter((name) => statSync(join(DEFAULT_UPLOAD_DIR, name), { throwIfNoEntry: false })?.size === size);
    const there = new Set(ofThisSize());
    const leftOver = () => ofThisSize().filter((name) => !there.has(name));
    const attach = () => h.multipart<{ ok: boolean; results: { serial: string }[] }>('/api/agent/send/attachments', { brandKey: 'acme-kakao', userKey: 'i2' }, [['files', photo]], TOKENS.writer, { 'idempotency-key': 'files-1' });
    const sent = await attach();
    const retried = await attach();
    expect(sent.body.ok).toBe(true);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    // the replayed request's upload is removed too, although nothing was sent for it
    expect(leftOver()).toEqual([]);
    expect(retried.body).toEqual(sent.body);
    const bubbles = (await h.customerChat('i2')).filter((b) => b.from === 'agent');
    expect(bubbles.map((b) => [b.kind, b.serial])).toEqual([
      ['consent', asked.body.serial],
      ...sent.body.results.map((r) => ['rich', r.serial]),
    ]);
    await files.cleanup();
  });

  it('answers the same key with a file of the same name and size but other bytes with 409, sending nothing for it', async () => {
    await h.customerWrites('i4', { text: 'hello' });
    const files = await imageDir();
    try {
      // solid red and solid blue of this size happen to encode to the same number of bytes
      const red = await writePng(files.file('red.png'), 500, 400, RED);
      const blue = await writePng(files.file('blue.png'), 500, 400, BLUE);
      expect(statSync(blue).size).toBe(statSync(red).size);
      const attach = (path: string) =>
        h.multipart<{ ok: boolean; code?: string; results: { serial: string }[] }>('/api/agent/send/attachments', { brandKey: 'acme-kakao', userKey: 'i4' }, [['files', path, 'photo.png']], TOKENS.writer, {
          'idempotency-key': 'files-2',
        });
      const sent = await attach(red);
      expect(sent.body.ok).toBe(true);
      const other = await attach(blue);
      expect([other.status, other.headers.get('idempotent-replayed'), other.body]).toEqual([409, null, expect.objectContaining({ ok: false, code: 'IDEMPOTENCY_CONFLICT' })]);
      expect((await h.customerChat('i4')).filter((b) => b.from === 'agent').map((b) => b.serial)).toEqual(sent.body.results.map((r) => r.serial));
      // the very same file again is still a retry
      const retried = await attach(red);
      expect([retried.status, retried.headers.get('idempotent-replayed'), retried.body]).toEqual([200, 'true', sent.body]);
    } finally {
      await files.cleanup();
    }
  });

  // last: it moves the clock a day on
  it('forgets a key 24 hours of the sandbox clock after its first use: the same key and body then send again', async () => {
    await h.customerWrites('i3', { text: 'hello' });
    const once = () => h.request<SendReply>('POST', '/api/agent/send', { token: TOKENS.writer, headers: { 'idempotency-key': 'daily-1' }, body: { brandKey: 'acme-kakao', userKey: 'i3', text: 'good morning' } });
    const first = await once();
    await h.post('/sandbox/clock', { advanceSeconds: 23 * 3600 });
    expect((await once()).headers.get('idempotent-replayed')).toBe('true');
    await h.post('/sandbox/clock', { advanceSeconds: 3600 + 1 });
    const later = await once();
    expect(later.body).toMatchObject({ ok: true });
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.serial).not.toBe(first.body.serial);
    expect((await h.customerChat('i3')).filter((b) => b.from === 'agent').map((b) => b.serial)).toEqual([first.body.serial, later.body.serial]);
  });
});
