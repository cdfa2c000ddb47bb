import { readFileSync, writeFileSync } from 'node:fs';
import { imageDir, writeGif, writeJpeg, writeNoise, writePng, writeTruncated, writeWebp } from '../media/test-support/images';
import { rawMultipart, textPart } from '../test-support/raw-multipart';
import { ServiceHarness, TOKENS } from '../test-support/service-harness';

interface UploadReply {
  ok: boolean;
  code: string;
  message: string | null;
  url: string;
  imageType?: string;
  name?: string;
  size?: number;
}

describe('uploads and sending an uploaded photo', () => {
  let h: ServiceHarness;
  let images: Awaited<ReturnType<typeof imageDir>>;
  const uploadImage = (path: string, imageType?: string, name?: string, type?: string) =>
    h.multipart<UploadReply>('/api/agent/upload/image', { brand: 'acme-kakao', ...(imageType ? { imageType } : {}) }, [['file', path, name, type]]);

  beforeAll(async () => {
    h = await ServiceHarness.start();
    images = await imageDir();
    await h.customerWrites('u1', { text: 'send me a picture' });
  });
  afterAll(async () => {
    await h.stop();
    await images.cleanup();
  });

  it('uploads a rich image as it is and answers {ok, code "0", url, imageType}', async () => {
    const path = await writeJpeg(images.file('card.jpg'), 800, 600);
    const reply = await uploadImage(path);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ ok: true, code: '0', message: null, url: expect.stringMatching(/^http/), imageType: 'rich', name: 'card.jpg' });
  });

  it('takes an empty imageType, as an HTML form sends one left unset, as the default rich', async () => {
    const path = await writeJpeg(images.file('form.jpg'), 800, 600);
    const reply = await h.multipart<UploadReply>('/api/agent/upload/image', { brand: 'acme-kakao', imageType: '' }, [['file', path]]);
    expect([reply.status, reply.body.imageType]).toEqual([200, 'rich']);
  });

  it.each([
    ['a text file renamed .jpg', async () => { const p = images.file('fake.jpg'); writeFileSync(p, 'not an image at all'); return p; }],
    ['a truncated JPEG', async () => writeTruncated(images.file('cut.jpg'), await writeNoise(images.file('full.jpg'), 400, 300, 'jpeg'))],
    ['a WebP', async () => writeWebp(images.file('pic.webp'))],
  ])('refuses %s with 400 UNSUPPORTED_IMAGE', async (_, make) => {
    const reply = await uploadImage(await make(), 'plain');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ ok: false, code: 'UNSUPPORTED_IMAGE' });
  });

  it('refuses a rich image outside 3:4..2:1 or narrower than 500 px with 400 naming the rule', async () => {
    const tall = await uploadImage(await writePng(images.file('tall.png'), 600, 1000));
    expect(tall.status).toBe(400);
    expect(tall.body).toMatchObject({ code: 'UNSUPPORTED_IMAGE', message: expect.stringMatching(/ratio|3:4/) });
    const narrow = await uploadImage(await writePng(images.file('narrow.png'), 400, 300));
    expect(narrow.body).toMatchObject({ code: 'UNSUPPORTED_IMAGE', message: expect.stringContaining('500') });
  });

  it('refuses a rich image above 5 MB with 413 IMAGE_TOO_LARGE', async () => {
    const big = await writeNoise(images.file('big.png'), 2400, 1600, 'png');
    const reply = await uploadImage(big, 'rich');
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({ ok: false, code: 'IMAGE_TOO_LARGE' });
  });

  it('prepares a plain image: scaled down to a 4096 px long side', async () => {
    const reply = await uploadImage(await writeJpeg(images.file('huge.jpg'), 5000, 1000), 'plain');
    expect(reply.body).toMatchObject({ ok: true, imageType: 'plain' });
    const hosted = Buffer.from(await (await fetch(reply.body.url)).arrayBuffer());
    const { default: sharp } = await import('sharp');
    expect(await sharp(hosted).metadata()).toMatchObject({ width: 4096, height: 819, format: 'jpeg' });
  });

  it('sends a plain upload as a photo bubble; rich uploads and external URLs are BAD_URL', async () => {
    const plain = await uploadImage(await writeGif(images.file('a.gif'), 300, 300), 'plain');
    const sent = await h.post<{ ok: boolean; serial: string }>('/api/agent/send/image', { brandKey: 'acme-kakao', userKey: 'u1', imageUrl: plain.body.url });
    expect(sent.body).toMatchObject({ ok: true, code: '0' });
    expect((await h.customerChat('u1')).find((b) => b.serial === sent.body.serial)).toMatchObject({ kind: 'image' });

    const rich = await uploadImage(await writeJpeg(images.file('r.jpg'), 1000, 600), 'rich');
    const wrongType = await h.post('/api/agent/send/image', { brandKey: 'acme-kakao', userKey: 'u1', imageUrl: rich.body.url });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toMatchObject({ ok: false, code: 'BAD_URL', message: expect.stringContaining('plain') });

    const external = await h.post('/api/agent/send/image', { brandKey: 'acme-kakao', userKey: 'u1', imageUrl: 'https://example.com/cat.jpg' });
    expect(external.status).toBe(400);
    expect(external.body).toMatchObject({ ok: false, code: 'BAD_URL' });
  });

  it('refuses a plain upload URL inside a rich IMAGE bubble (the messenger rejects it)', async () => {
    const plain = await uploadImage(await writeJpeg(images.file('p.jpg'), 1000, 600), 'plain');
    const reply = await h.post<{ ok: boolean; code: string }>('/api/agent/send/rich', {
      brandKey: 'acme-kakao',
      userKey: 'u1',
      rich: JSON.stringify({ chat_bubble_type: 'IMAGE', message: 'x', attachment: { image: { img_url: plain.body.url } } }),
    });
    expect(reply.body.ok).toBe(false);
    expect(reply.body.code).toMatch(/^-5\d\d$/);
  });

  it('uploads files by type and refuses audio above 10 MB with 413', async () => {
    const doc = images.file('terms.pdf');
    writeFileSync(doc, '%PDF-1.4 terms');
    const reply = await h.multipart<UploadReply>('/api/agent/upload/file', { brand: 'acme-kakao', fileType: 'file' }, [['file', doc]]);
    expect(reply.body).toMatchObject({ ok: true, code: '0', url: expect.any(String), name: 'terms.pdf', size: 14, fileType: 'file' });

    const audio = images.file('long.m4a');
    writeFileSync(audio, Buffer.alloc(10 * 1024 * 1024 + 1));
    const big = await h.multipart('/api/agent/upload/file', { brand: 'acme-kakao', fileType: 'audio' }, [['file', audio]]);
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ ok: false, code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining('10 MB') });
  });

  it('refuses an upload without a file, with a bad fileType or an empty file, with 400', async () => {
    const none = await h.multipart('/api/agent/upload/image', { brand: 'acme-kakao' }, []);
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('file') });
    const doc = images.file('x.txt');
    writeFileSync(doc, 'x');
    const badType = await h.multipart('/api/agent/upload/file', { brand: 'acme-kakao', fileType: 'movie' }, [['file', doc]]);
    expect(badType.status).toBe(400);
    expect(badType.body).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('fileType') });
    const empty = images.file('empty.bin');
    writeFileSync(empty, '');
    const nothing = await h.multipart('/api/agent/upload/file', { brand: 'acme-kakao', fileType: 'file' }, [['file', empty]]);
    expect([nothing.status, nothing.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: 'file "empty.bin" is empty (0 bytes)' }]);
  });

  it('refuses two files, or a file in another part, with 400 saying where the one file goes', async () => {
    const doc = images.file('one.pdf');
    writeFileSync(doc, '%PDF-1.4 one');
    const two = await h.multipart('/api/agent/upload/file', { brand: 'acme-kakao', fileType: 'file' }, [['file', doc], ['file', doc]]);
    expect([two.status, two.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: 'too many files: this route takes one file, in the part "file"' }]);
    const misplaced = await h.multipart('/api/agent/upload/file', { brand: 'acme-kakao', fileType: 'file' }, [['files', doc]]);
    expect([misplaced.status, misplaced.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: 'unexpected file part "files": this route takes one file, in the part "file"' }]);
    const asText = await h.multipart('/api/agent/upload/file', { brand: 'acme-kakao', fileType: 'file', file: 'one.pdf' }, []);
    expect([asText.status, asText.body]).toEqual([
      400,
      { ok: false, code: 'BAD_REQUEST', message: 'the part "file" must be a file, with a file name (Content-Disposition: form-data; name="file"; filename="…"), not a text field' },
    ]);
  });

  it('refuses an image whose file name holds a control character with 400 naming it and its part', async () => {
    const jpeg = readFileSync(await writeJpeg(images.file('named.jpg'), 800, 600));
    const reply = await h.multipartRaw<UploadReply>('/api/agent/upload/image', [
      textPart('brand', 'acme-kakao'),
      { disposition: `name="file"; filename*=UTF-8''ok%01.jpg`, contentType: 'image/jpeg', content: jpeg },
    ]);
    expect([reply.status, reply.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: 'the file name "ok\\u0001.jpg" in the part "file" must not contain control characters' }]);
  });

  it.each([
    ['a%07b.txt', 'a\\u0007b.txt'],
    ['a%00b.txt', 'a\\u0000b.txt'],
    ['a%1Bb.txt', 'a\\u001bb.txt'],
  ])('refuses a file named %s with 400 naming it and its part', async (encoded, shown) => {
    const reply = await h.multipartRaw<UploadReply>('/api/agent/upload/file', [
      textPart('brand', 'acme-kakao'),
      textPart('fileType', 'file'),
      { disposition: `name="file"; filename*=UTF-8''${encoded}`, contentType: 'text/plain', content: 'some text' },
    ]);
    expect([reply.status, reply.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: `the file name "${shown}" in the part "file" must not contain control characters` }]);
  });

  it('refuses a multipart body with a Content-Encoding (multer reads none) with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const doc = images.file('coded.txt');
    writeFileSync(doc, 'plain text');
    const reply = await h.multipart('/api/agent/upload/file', { brand: 'acme-kakao', fileType: 'file' }, [['file', doc]], TOKENS.writer, { 'content-encoding': 'gzip' });
    expect([reply.status, reply.body]).toEqual([
      415,
      { ok: false, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'POST /api/agent/upload/file takes multipart/form-data without a Content-Encoding; got Content-Encoding: gzip' },
    ]);
  });

  describe('a multipart body that cannot be split into its parts', () => {
    const form = () => rawMultipart([textPart('brand', 'acme-kakao'), textPart('fileType', 'file'), { disposition: 'name="file"; filename="a.txt"', contentType: 'text/plain', content: 'x'.repeat(2000) }]);
    const post = async (body: Buffer, contentType: string) => {
      const response = await fetch(`${h.url}/api/agent/upload/file`, { method: 'POST', body, headers: { authorization: `Bearer ${TOKENS.writer}`, 'content-type': contentType } });
      return [response.status, await response.json()];
    };
    const cutShort = {
      ok: false,
      code: 'BAD_REQUEST',
      message: 'the multipart body ended before its closing boundary: it was cut short, or its parts are not separated by the boundary its Content-Type names',
    };

    it('is refused with 400 saying it ended early when it is cut short', async () => {
      const { body, contentType } = form();
      expect(await post(body.subarray(0, body.length / 2), contentType)).toEqual([400, cutShort]);
    });

    it('is refused with 400 saying so when Content-Type names another boundary, or none', async () => {
      const { body } = form();
      expect(await post(body, 'multipart/form-data; boundary=not-the-boundary')).toEqual([400, cutShort]);
      expect(await post(body, 'multipart/form-data')).toEqual([
        400,
        { ok: false, code: 'BAD_REQUEST', message: 'the Content-Type multipart/form-data names no boundary (multipart/form-data; boundary=…)' },
      ]);
    });
  });

  it('refuses a BrandRead key with 403', async () => {
    const path = await writeJpeg(images.file('ro.jpg'), 800, 600);
    const reply = await h.multipart('/api/agent/upload/image', { brand: 'acme-kakao' }, [['file', path]], TOKENS.reader);
    expect(reply.status).toBe(403);
  });
});
