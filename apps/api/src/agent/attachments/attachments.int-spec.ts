import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execInSqliteFile } from '@brandwire/store/testing';
import { DEFAULT_UPLOAD_DIR } from '../../media';
import { imageDir, writeJpeg, writeNoise, writePng, writeWebp } from '../../media/test-support/images';
import { textPart } from '../../test-support/raw-multipart';
import { ServiceHarness, TOKENS } from '../../test-support/service-harness';
import { DEFAULT_CAPTION } from './attachment-plan';

interface Result {
  kind: string;
  file?: string;
  ok: boolean;
  code: string;
  serial: string;
  message?: string;
}

interface Reply {
  ok: boolean;
  results: Result[];
}

interface Bubble {
  serial: string;
  from: string;
  kind: string;
  text?: string;
  imageUrl?: string;
  deleted: boolean;
}

/** Uploads still in the service's upload folder with exactly these bytes (random ones: no other test's). */
function uploadsHolding(content: Buffer): string[] {
  return readdirSync(DEFAULT_UPLOAD_DIR)
    .map((name) => join(DEFAULT_UPLOAD_DIR, name))
    .filter((path) => statSync(path, { throwIfNoEntry: false })?.size === content.length && readFileSync(path).equals(content));
}

describe('POST /api/agent/send/attachments', () => {
  let h: ServiceHarness;
  let files: Awaited<ReturnType<typeof imageDir>>;
  const send = (userKey: string, parts: ReadonlyArray<readonly [string, string, string?, string?]>, fields: Record<string, string> = {}) =>
    h.multipart<Reply>('/api/agent/send/attachments', { brandKey: 'acme-kakao', userKey, ...fields }, parts);
  const agentBubbles = async (userKey: string) => (await h.customerChat(userKey)).filter((b) => b.from === 'agent') as Bubble[];

  beforeAll(async () => {
    h = await ServiceHarness.start();
    files = await imageDir();
  });
  afterAll(async () => {
    await h.stop();
    await files.cleanup();
  });

  it('rich: one card per image, the text as the first caption and a default caption after, each with a serial', async () => {
    await h.customerWrites('a1', { text: 'photos please' });
    const tall = await writeJpeg(files.file('tall.jpg'), 300, 900);
    const wide = await writePng(files.file('wide.png'), 2000, 500);
    const reply = await send('a1', [['files', tall], ['files', wide]], { text: 'Here they are' });
    expect(reply.status).toBe(200);
    expect(reply.body.ok).toBe(true);
    expect(reply.body.results.map((r) => [r.kind, r.ok, r.code])).toEqual([
      ['image', true, '0'],
      ['image', true, '0'],
    ]);
    expect(new Set(reply.body.results.map((r) => r.serial)).size).toBe(2);
    const bubbles = await agentBubbles('a1');
    expect(bubbles.map((b) => [b.kind, b.text])).toEqual([
      ['rich', 'Here they are'],
      ['rich', DEFAULT_CAPTION],
    ]);
    // the tall image was padded with white margins into the card geometry
    const hosted = Buffer.from(await (await fetch(bubbles[0]?.imageUrl ?? '')).arrayBuffer());
    const { default: sharp } = await import('sharp');
    const meta = await sharp(hosted).metadata();
    expect(meta.width ?? 0).toBeGreaterThanOrEqual(500);
    expect((meta.width ?? 0) / (meta.height ?? 1)).toBeGreaterThanOrEqual(0.75 - 0.01);
  });

  it('journals the images of one send as one item, deleted only when every image is deleted', async () => {
    const items = (await h.get<{ messages: Array<{ kind: string; serial?: string; text: string; deleted?: boolean }> }>('/api/agent/rooms/a1/messages?brand=acme-kakao')).body
      .messages;
    const group = items.find((m) => m.kind === 'agent');
    expect(group?.text.split('\n')).toHaveLength(2);
    const serials = (await agentBubbles('a1')).map((b) => b.serial);
    expect(group?.serial).toBe(serials[0]);
    // both agent signals of the item announce every image's serial, which a later delete names
    const signals = (await h.get<{ signals: Array<{ signal: Record<string, unknown> }> }>('/api/agent/signals?brand=acme-kakao&max=1000', TOKENS.reader)).body.signals;
    const announced = signals.filter((s) => s.signal['kind'] === 'agent' && s.signal['userKey'] === 'a1').map((s) => [s.signal['serial'], s.signal['serials']]);
    expect(announced).toEqual([
      [serials[0], serials],
      [serials[0], serials],
    ]);

    await h.post('/api/agent/delete', { brandKey: 'acme-kakao', userKey: 'a1', text: 'Here they are' });
    let after = (await h.get<{ messages: Array<{ kind: string; serial?: string; deleted?: boolean }> }>('/api/agent/rooms/a1/messages?brand=acme-kakao')).body.messages;
    expect(after.find((m) => m.kind === 'agent')?.deleted).toBeUndefined();
    // text lookup matches only the first image: the default caption of the second does not match
    expect((await h.post('/api/agent/delete', { brandKey: 'acme-kakao', userKey: 'a1', text: DEFAULT_CAPTION })).body).toMatchObject({ code: 'NOT_FOUND' });
    await h.post('/api/agent/delete', { brandKey: 'acme-kakao', userKey: 'a1', serial: serials[1] });
    after = (await h.get<{ messages: Array<{ kind: string; serial?: string; deleted?: boolean }> }>('/api/agent/rooms/a1/messages?brand=acme-kakao')).body.messages;
    expect(after.find((m) => m.kind === 'agent')?.deleted).toBe(true);
    expect(after.filter((m) => m.kind === 'deleted')).toHaveLength(2);
  });

  it('plain: the text as a separate bubble before the photos, which carry no caption', async () => {
    await h.customerWrites('a2', { text: 'hi' });
    const photo = await writeJpeg(files.file('p.jpg'), 640, 480);
    const reply = await send('a2', [['files', photo]], { text: 'Your receipt', imageStyle: 'plain' });
    expect(reply.body.results.map((r) => r.kind)).toEqual(['text', 'image']);
    expect((await agentBubbles('a2')).map((b) => [b.kind, b.text ?? null])).toEqual([
      ['text', 'Your receipt'],
      ['image', null],
    ]);
  });

  it('sends a file with text as a text bubble first and a file bubble; webp and others become files', async () => {
    await h.customerWrites('a3', { text: 'hi' });
    const pdf = files.file('invoice.pdf');
    writeFileSync(pdf, '%PDF-1.4 invoice');
    const webp = await writeWebp(files.file('pic.webp'));
    const reply = await send('a3', [['files', pdf, 'invoice.pdf', 'application/pdf'], ['files', webp, 'pic.webp', 'image/webp']], { text: 'The invoice' });
    expect(reply.body.results.map((r) => [r.kind, r.ok])).toEqual([
      ['text', true],
      ['file', true],
      ['file', true],
    ]);
    expect((await agentBubbles('a3')).map((b) => b.kind)).toEqual(['text', 'file', 'file']);
  });

  it('decides image or file by the declared Content-Type or extension; a declared image that is not one fails as an image', async () => {
    await h.customerWrites('a4', { text: 'hi' });
    const png = await writePng(files.file('blob.bin'), 800, 600);
    const asFile = await send('a4', [['files', png, 'blob.bin', 'application/octet-stream']]);
    expect(asFile.body.results.map((r) => [r.kind, r.ok])).toEqual([['file', true]]);
    const byExtension = await send('a4', [['files', png, 'chart.png', 'application/octet-stream']]);
    expect(byExtension.body.results.map((r) => [r.kind, r.ok])).toEqual([['image', true]]);
    const fake = files.file('fake.jpg');
    writeFileSync(fake, 'not a picture at all');
    const renamed = await send('a4', [['files', fake, 'holiday.jpg', 'image/jpeg']]);
    expect(renamed.body).toEqual({ ok: false, results: [expect.objectContaining({ kind: 'image', ok: false, code: 'UNSUPPORTED_IMAGE' })] });
    expect((await agentBubbles('a4')).map((b) => b.kind)).toEqual(['file', 'rich']);
  });

  it('puts the text on the first image delivered when the first one fails, and sends it alone when none is delivered', async () => {
    await h.customerWrites('a6', { text: 'hi' });
    const sliver = await writePng(files.file('sliver6.png'), 2000, 10);
    const good = await writeJpeg(files.file('good6.jpg'), 800, 600);
    const reply = await send('a6', [['files', sliver], ['files', good]], { text: 'Your parcel' });
    expect(reply.body.results.map((r) => [r.kind, r.ok])).toEqual([
      ['image', false],
      ['image', true],
    ]);
    expect((await agentBubbles('a6')).map((b) => [b.kind, b.text])).toEqual([['rich', 'Your parcel']]);

    const only = await send('a6', [['files', sliver]], { text: 'The label' });
    expect(only.body.results.map((r) => [r.kind, r.ok])).toEqual([
      ['image', false],
      ['text', true],
    ]);
    expect((await agentBubbles('a6')).map((b) => [b.kind, b.text])).toEqual([
      ['rich', 'Your parcel'],
      ['text', 'The label'],
    ]);
  });

  it('journals every item in the order the customer received it: the images before the files after them', async () => {
    await h.customerWrites('a7', { text: 'hi' });
    const photo = await writeJpeg(files.file('order.jpg'), 800, 600);
    const pdf = files.file('order.pdf');
    writeFileSync(pdf, '%PDF-1.4 order');
    const reply = await send('a7', [['files', pdf, 'order.pdf', 'application/pdf'], ['files', photo]], { text: 'Both' });
    // the images go first: each item names the file part it came from
    expect(reply.body.results.map((r) => [r.kind, r.file])).toEqual([
      ['image', 'order.jpg'],
      ['file', 'order.pdf'],
    ]);
    const items = (await h.get<{ messages: Array<{ kind: string; serial?: string }> }>('/api/agent/rooms/a7/messages?brand=acme-kakao')).body.messages;
    // newest first
    expect(items.filter((m) => m.kind === 'agent').map((m) => m.serial)).toEqual([reply.body.results[1]?.serial, reply.body.results[0]?.serial]);
    expect((await agentBubbles('a7')).map((b) => b.serial)).toEqual(reply.body.results.map((r) => r.serial));
  });

  it('is not cut into by text sends to the same customer made meanwhile, and the journal keeps the order received', async () => {
    await h.customerWrites('a-turn', { text: 'hi' });
    const first = await writeNoise(files.file('turn-1.jpg'), 2400, 1600, 'jpeg');
    const second = await writeNoise(files.file('turn-2.jpg'), 2400, 1600, 'jpeg');
    const attachments = send('a-turn', [['files', first], ['files', second]], { imageStyle: 'plain' });
    // the texts go once the customer has the first image, while the second is still being prepared
    const deadline = Date.now() + 10_000;
    while (!(await agentBubbles('a-turn')).some((b) => b.kind === 'image') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    const texts = await Promise.all(['t1', 't2', 't3'].map((text) => h.post<{ serial: string }>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'a-turn', text })));
    const images = (await attachments).body.results;
    expect(images.map((r) => r.ok)).toEqual([true, true]);

    const received = await agentBubbles('a-turn');
    expect(received.map((b) => b.kind)).toEqual(['image', 'image', 'text', 'text', 'text']);
    const items = (await h.get<{ messages: Array<{ kind: string; serial?: string }> }>('/api/agent/rooms/a-turn/messages?brand=acme-kakao')).body.messages;
    const journaled = items.filter((m) => m.kind === 'agent').map((m) => m.serial).reverse();
    expect(journaled).toEqual([images[0]?.serial, ...received.slice(2).map((b) => b.serial)]);
    expect(new Set(journaled.slice(1))).toEqual(new Set(texts.map((t) => t.body.serial)));
  });

  it('is not cut into by an end made meanwhile: the consultation ends after its last bubble, and is journaled so', async () => {
    await h.customerWrites('a-end', { text: 'hi' });
    const first = await writeNoise(files.file('end-1.jpg'), 2400, 1600, 'jpeg');
    const second = await writeNoise(files.file('end-2.jpg'), 2400, 1600, 'jpeg');
    const attachments = send('a-end', [['files', first], ['files', second]], { imageStyle: 'plain' });
    const deadline = Date.now() + 10_000;
    while (!(await agentBubbles('a-end')).some((b) => b.kind === 'image') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    const ended = await h.post<{ ok: boolean }>('/api/agent/end', { brandKey: 'acme-kakao', userKey: 'a-end' });
    expect(ended.body.ok).toBe(true);
    expect((await attachments).body.results.map((r) => r.ok)).toEqual([true, true]);
    expect((await agentBubbles('a-end')).map((b) => b.kind)).toEqual(['image', 'image']);
    const items = (await h.get<{ messages: Array<{ kind: string }> }>('/api/agent/rooms/a-end/messages?brand=acme-kakao')).body.messages;
    expect(items.map((m) => m.kind).reverse()).toEqual(['reference', 'message', 'agent', 'ended']);
  });

  it.each([
    ['1,001 emoji', '\u{1F600}'.repeat(1001)],
    ['501 hearts with their variation selector (1,002 characters)', '\u2764\uFE0F'.repeat(501)],
  ])('refuses a text of %s with 400 before anything is sent, counting as the messenger does', async (_, text) => {
    await h.customerWrites('a-long', { text: 'hi' });
    const pdf = files.file('long.pdf');
    writeFileSync(pdf, '%PDF-1.4 long');
    const reply = await send('a-long', [['files', pdf, 'long.pdf', 'application/pdf']], { text });
    expect([reply.status, reply.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: expect.stringContaining('text must be at most 1000 characters') }]);
    expect(await agentBubbles('a-long')).toEqual([]);
  });

  it('sends a text of 1,000 emoji with a file: the limit counts an emoji as one character', async () => {
    await h.customerWrites('a-emoji', { text: 'hi' });
    const pdf = files.file('emoji.pdf');
    writeFileSync(pdf, '%PDF-1.4 emoji');
    const reply = await send('a-emoji', [['files', pdf, 'emoji.pdf', 'application/pdf']], { text: '\u{1F600}'.repeat(1000) });
    expect(reply.body.results.map((r) => [r.kind, r.ok])).toEqual([['text', true], ['file', true]]);
  });

  it('fails only the unsupported or oversized item, which is never delivered; ok while one bubble succeeded', async () => {
    await h.customerWrites('a5', { text: 'hi' });
    const good = await writeJpeg(files.file('good.jpg'), 800, 600);
    const sliver = await writePng(files.file('sliver.png'), 2000, 10);
    const noisy = await writeNoise(files.file('noisy.png'), 3000, 2000, 'png');
    const reply = await send('a5', [['files', sliver], ['files', good], ['files', noisy]], { imageStyle: 'plain' });
    expect(reply.body.ok).toBe(true);
    const [first, second, third] = reply.body.results;
    expect(first).toMatchObject({ kind: 'image', ok: false, code: 'UNSUPPORTED_IMAGE', message: expect.stringContaining('sliver.png') });
    expect(second).toMatchObject({ kind: 'image', ok: true });
    expect(third?.ok === true || third?.code === 'IMAGE_TOO_LARGE').toBe(true);
    const delivered = (await agentBubbles('a5')).map((b) => b.serial);
    expect(delivered).toContain(second?.serial);
    expect(delivered).not.toContain(first?.serial);
  });

  it('answers ok:false with every item failed when the consultation has ended (-502), and bills nothing', async () => {
    const before = (await h.get<{ used: number }>('/api/agent/settings/plan?brand=acme-kakao')).body.used;
    const photo = await writeJpeg(files.file('late.jpg'), 800, 600);
    const reply = await send('never-wrote', [['files', photo]]);
    expect(reply.body.ok).toBe(false);
    expect(reply.body.results[0]).toMatchObject({ ok: false, code: '-502' });
    expect((await h.get<{ used: number }>('/api/agent/settings/plan?brand=acme-kakao')).body.used).toBe(before);
  });

  it('keeps the count of a bubble the messenger accepted even when journaling it fails, and journals it once the database takes it', async () => {
    await h.customerWrites('a8', { text: 'hi' });
    const before = (await h.get<{ used: number }>('/api/agent/settings/plan?brand=acme-kakao')).body.used;
    const pdf = files.file('kept.pdf');
    writeFileSync(pdf, '%PDF-1.4 kept');
    execInSqliteFile(h.dataDir, "CREATE TRIGGER refuse_a8 BEFORE INSERT ON journal WHEN NEW.user_key = 'a8' BEGIN SELECT RAISE(ABORT, 'the disk refused the write'); END;");
    try {
      const reply = await send('a8', [['files', pdf, 'kept.pdf', 'application/pdf']]);
      expect([reply.status, reply.body]).toEqual([503, { ok: false, code: 'STORAGE_UNAVAILABLE', message: expect.stringMatching(/^the messenger accepted the message \(serial bw-\S+\), .*do not send it again$/) }]);
    } finally {
      execInSqliteFile(h.dataDir, 'DROP TRIGGER refuse_a8');
    }
    expect((await agentBubbles('a8')).map((b) => b.kind)).toEqual(['file']);
    const journaled = async () => (await h.get<{ messages: Array<{ kind: string }> }>('/api/agent/rooms/a8/messages?brand=acme-kakao')).body.messages.map((m) => m.kind);
    for (let i = 0; i < 100 && !(await journaled()).includes('agent'); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await journaled()).toEqual(['agent', 'message', 'reference']);
    expect((await h.get<{ used: number }>('/api/agent/settings/plan?brand=acme-kakao')).body.used).toBe(before + 1);
  });

  it('refuses more than 20 files with 400 saying how many it takes, before anything is sent', async () => {
    await h.customerWrites('a-many', { text: 'hi' });
    const pdf = files.file('many.pdf');
    writeFileSync(pdf, '%PDF-1.4 many');
    const reply = await send('a-many', Array.from({ length: 21 }, () => ['files', pdf] as const));
    expect([reply.status, reply.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: 'too many files: this route takes at most 20 files, in the parts "files"' }]);
    expect(await agentBubbles('a-many')).toEqual([]);
  });

  it('tells a files part without a file name (a text field to multipart) apart from a field it does not know', async () => {
    await h.customerWrites('a-text-part', { text: 'hi' });
    const reply = await h.multipart('/api/agent/send/attachments', { brandKey: 'acme-kakao', userKey: 'a-text-part', files: 'doc.pdf' }, [], TOKENS.writer);
    expect([reply.status, reply.body]).toEqual([
      400,
      { ok: false, code: 'BAD_REQUEST', message: 'the part "files" must be a file, with a file name (Content-Disposition: form-data; name="files"; filename="…"), not a text field' },
    ]);
    expect(await agentBubbles('a-text-part')).toEqual([]);
  });

  it('refuses a file name with a control character with 400 naming the file and its part, before anything is sent', async () => {
    await h.customerWrites('a-control', { text: 'hi' });
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4 '), randomBytes(4000)]);
    const reply = await h.multipartRaw('/api/agent/send/attachments', [
      textPart('brandKey', 'acme-kakao'),
      textPart('userKey', 'a-control'),
      textPart('text', 'two files'),
      { disposition: 'name="files"; filename="fine.pdf"', contentType: 'application/pdf', content: pdf },
      { disposition: `name="files"; filename*=UTF-8''a%01.jpg`, contentType: 'image/jpeg', content: readFileSync(await writeJpeg(files.file('control.jpg'), 800, 600)) },
    ]);
    expect([reply.status, reply.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: 'the file name "a\\u0001.jpg" in the part "files" must not contain control characters' }]);
    expect(await agentBubbles('a-control')).toEqual([]);
    expect(uploadsHolding(pdf)).toEqual([]);
  });

  it('refuses a file name that is not UTF-8 with 400 naming the file and its part, before anything is sent', async () => {
    await h.customerWrites('a-latin1-name', { text: 'hi' });
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4 '), randomBytes(4000)]);
    const reply = await h.multipartRaw('/api/agent/send/attachments', [
      textPart('brandKey', 'acme-kakao'),
      textPart('userKey', 'a-latin1-name'),
      { disposition: `name="files"; filename*=UTF-8''caf%E9.pdf`, contentType: 'application/pdf', content: pdf },
    ]);
    expect([reply.status, reply.body]).toEqual([
      400,
      { ok: false, code: 'BAD_REQUEST', message: 'the file name "caf\uFFFD.pdf" in the part "files" is not valid UTF-8 (or holds U+FFFD, the character that stands in for such bytes)' },
    ]);
    expect(await agentBubbles('a-latin1-name')).toEqual([]);
    expect(uploadsHolding(pdf)).toEqual([]);
  });

  it('refuses a text that is not UTF-8 with 400 naming the field, before anything is sent', async () => {
    await h.customerWrites('a-latin1', { text: 'hi' });
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4 '), randomBytes(4000)]);
    const reply = await h.multipartRaw('/api/agent/send/attachments', [
      textPart('brandKey', 'acme-kakao'),
      textPart('userKey', 'a-latin1'),
      textPart('text', Buffer.from([0x68, 0x65, 0x6c, 0xff, 0x6c, 0x6f])),
      { disposition: 'name="files"; filename="hello.pdf"', contentType: 'application/pdf', content: pdf },
    ]);
    expect([reply.status, reply.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: 'text is not valid UTF-8: it holds bytes that are not UTF-8 (or U+FFFD, the character that stands in for them)' }]);
    expect(await agentBubbles('a-latin1')).toEqual([]);
    expect(uploadsHolding(pdf)).toEqual([]);
  });

  it('refuses a send with an empty file with 400 naming it, before anything is sent', async () => {
    await h.customerWrites('a-empty', { text: 'hi' });
    const pdf = files.file('real.pdf');
    writeFileSync(pdf, '%PDF-1.4 real');
    const empty = files.file('empty.bin');
    writeFileSync(empty, '');
    const reply = await send('a-empty', [['files', pdf], ['files', empty]], { text: 'two files' });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ ok: false, code: 'BAD_REQUEST', message: 'files: "empty.bin" is empty (0 bytes); nothing was sent' });
    expect(await agentBubbles('a-empty')).toEqual([]);
  });

  it('refuses a send without files with 400 and a BrandRead key with 403', async () => {
    const none = await send('a1', []);
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ ok: false, code: 'BAD_REQUEST', message: expect.stringContaining('files') });
    const photo = await writeJpeg(files.file('ro.jpg'), 800, 600);
    const ro = await h.multipart('/api/agent/send/attachments', { brandKey: 'acme-kakao', userKey: 'a1' }, [['files', photo]], TOKENS.reader);
    expect(ro.status).toBe(403);
  });
});
