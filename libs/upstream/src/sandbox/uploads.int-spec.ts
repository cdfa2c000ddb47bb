import { must } from '../test-support/must';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import axios from 'axios';
import { SandboxHarness, startSandboxHarness } from '../testing/harness';
import { TINY_GIF, TINY_JPEG, TINY_PNG } from '../testing/images';
import { KAKAO, OTHER, customerSays, serial, startHarness } from '../test-support/fixtures';

describe('sandbox uploads', () => {
  let h: SandboxHarness;
  let dir: string;
  beforeAll(async () => {
    h = await startHarness();
    dir = await mkdtemp(join(tmpdir(), 'upstream-upload-test-'));
    await customerSays(h, 'up-user', 'hello');
  });
  afterAll(async () => {
    await h.close();
    await rm(dir, { recursive: true, force: true });
  });

  const image = (data: Buffer | string, imageType: 'rich' | 'plain', fileName = 'a.png', senderKey = KAKAO) =>
    h.messenger.uploadImage({ senderKey, data, fileName, imageType });

  it('stores a real PNG and serves it from the sandbox file host', async () => {
    const r = await image(TINY_PNG, 'rich');
    expect(r).toEqual({ code: '0000', message: null, url: expect.stringMatching(new RegExp(`^${h.sandbox.url}/files/[0-9a-f]+\\.png$`)) });
    const got = await axios.get<ArrayBuffer>(must(r.url), { responseType: 'arraybuffer' });
    expect(got.headers['content-type']).toBe('image/png');
    expect(Buffer.from(got.data).equals(TINY_PNG)).toBe(true);
  });

  it('accepts a JPEG as plain and sends it as a photo bubble', async () => {
    const r = await image(TINY_JPEG, 'plain', 'photo.jpg');
    expect(r.code).toBe('0000');
    await expect(h.messenger.writeImage({ senderKey: KAKAO, userKey: 'up-user', serialNumber: serial(), imageUrl: must(r.url) })).resolves.toEqual({ code: '0', message: null });
  });

  it('streams a GIF from a file path', async () => {
    const path = join(dir, 'anim.gif');
    await writeFile(path, TINY_GIF);
    const r = await image(path, 'plain', 'anim.gif');
    expect(r.code).toBe('0000');
    expect(r.url).toMatch(/\.gif$/);
  });

  it('-505 for a renamed text file and for an image over 5 MB', async () => {
    await expect(image(Buffer.from('not an image at all'), 'rich', 'fake.png')).resolves.toEqual({
      code: '-505',
      message: 'InvalidImageException: the image is not a jpg, png or gif',
    });
    const big = Buffer.concat([TINY_PNG, Buffer.alloc(5 * 1024 * 1024)]);
    await expect(image(big, 'plain', 'big.png')).resolves.toEqual({ code: '-505', message: 'InvalidImageException: image is larger than 5 MB' });
  });

  it('-505 when an image is used as the other type', async () => {
    const rich = await image(TINY_PNG, 'rich');
    const plain = await image(TINY_PNG, 'plain');
    await expect(h.messenger.writeImage({ senderKey: KAKAO, userKey: 'up-user', serialNumber: serial(), imageUrl: must(rich.url) })).resolves.toEqual({
      code: '-505',
      message: 'InvalidImageException: image_url was uploaded as rich; message_type IM needs image_type plain',
    });
    const envelope = { chat_bubble_type: 'WIDE', message: 'x', attachment: { image: { img_url: plain.url } } };
    await expect(h.messenger.sendRich({ senderKey: KAKAO, userKey: 'up-user', serialNumber: serial(), envelope })).resolves.toEqual({
      code: '-505',
      message: 'InvalidImageException: attachment.image.img_url was uploaded as plain; rich bubbles need image_type rich',
    });
  });

  it('-510 for an image uploaded for another channel, as for an unknown URL; it works on its own channel', async () => {
    await customerSays(h, 'other-user', 'hello', OTHER);
    const rich = must((await image(TINY_PNG, 'rich', 'a.png', OTHER)).url);
    const plain = must((await image(TINY_PNG, 'plain', 'a.png', OTHER)).url);
    const sendRich = (envelope: Record<string, unknown>, senderKey = KAKAO, userKey = 'up-user') =>
      h.messenger.sendRich({ senderKey, userKey, serialNumber: serial(), envelope });
    const notUploaded = (path: string) => ({ code: '-510', message: `InvalidMessageException: ${path} is not an image uploaded to the messenger` });
    await expect(sendRich({ chat_bubble_type: 'IMAGE', attachment: { image: { img_url: rich } } })).resolves.toEqual(notUploaded('attachment.image.img_url'));
    await expect(sendRich({ chat_bubble_type: 'WIDE', message: 'x', attachment: { image: { img_url: rich } } })).resolves.toEqual(notUploaded('attachment.image.img_url'));
    await expect(sendRich({ chat_bubble_type: 'TEXT', message: 'x', attachment: { image: { img_url: rich } } })).resolves.toEqual(notUploaded('attachment.image.img_url'));
    const cards = [{ header: 'a', attachment: { image: { img_url: rich } } }, { header: 'b' }];
    await expect(sendRich({ chat_bubble_type: 'CAROUSEL_FEED', carousel: { list: cards } })).resolves.toEqual(notUploaded('carousel.list[0].attachment.image.img_url'));
    const listOf = (img_url: string) => ({ chat_bubble_type: 'WIDE_ITEM_LIST', message: 'x', attachment: { item: { list: [{ title: 'a', img_url }] } } });
    await expect(sendRich(listOf(rich))).resolves.toEqual(notUploaded('attachment.item.list[0].img_url'));
    await expect(sendRich(listOf('https://evil.example/x.jpg'))).resolves.toEqual(notUploaded('attachment.item.list[0].img_url'));
    // another channel's plain upload is unknown here too, so the wrong image_type is not what is reported
    await expect(sendRich({ chat_bubble_type: 'IMAGE', attachment: { image: { img_url: plain } } })).resolves.toEqual(notUploaded('attachment.image.img_url'));
    await expect(h.messenger.writeImage({ senderKey: KAKAO, userKey: 'up-user', serialNumber: serial(), imageUrl: plain })).resolves.toEqual(notUploaded('image_url'));
    const chat = await h.control.chat('up-user', KAKAO);
    expect(chat.ok && chat.bubbles.filter((b) => b.imageUrl === rich || b.imageUrl === plain)).toEqual([]);
    await expect(sendRich({ chat_bubble_type: 'IMAGE', attachment: { image: { img_url: rich } } }, OTHER, 'other-user')).resolves.toEqual({ code: '0', message: null });
    await expect(h.messenger.writeImage({ senderKey: OTHER, userKey: 'other-user', serialNumber: serial(), imageUrl: plain })).resolves.toEqual({ code: '0', message: null });
  });

  it('-510 for a file uploaded for another channel, as for an unknown URL', async () => {
    const r = await h.messenger.uploadFile({ senderKey: OTHER, data: Buffer.from('%PDF-1.4 tiny'), fileName: 'm.pdf', fileType: 'file' });
    await expect(h.messenger.writeFile({ senderKey: KAKAO, userKey: 'up-user', serialNumber: serial(), fileUrl: must(r.url), fileName: 'm.pdf', fileSize: 13, messageType: 'FI' })).resolves.toEqual({
      code: '-510',
      message: 'InvalidMessageException: file_url is not a file uploaded to the messenger',
    });
  });

  it('-501 for an unknown sender, -509 for a missing file part or a bad image_type, -507 without the key', async () => {
    await expect(image(TINY_PNG, 'rich', 'a.png', 'e'.repeat(40))).resolves.toMatchObject({ code: '-501' });
    const form = new FormData();
    form.append('sender_key', KAKAO);
    const headers = { 'X-Partner-Key': h.partnerKey };
    const missing = await axios.post(`${h.sandbox.url}/v1/upload/image`, form, { headers });
    expect(missing.data).toEqual({ code: -509, message: 'InvalidJsonException: the file part is missing' });
    const badType = new FormData();
    badType.append('sender_key', KAKAO);
    badType.append('image_type', 'poster');
    badType.append('image', new Blob([TINY_PNG]), 'a.png');
    expect((await axios.post(`${h.sandbox.url}/v1/upload/image`, badType, { headers })).data).toMatchObject({ code: -509 });
    const noKey = await axios.post(`${h.sandbox.url}/v1/upload/image`, form);
    expect(noKey.data).toMatchObject({ code: -507 });
  });

  it('uploads a file from disk and sends it; an audio file over 10 MB is refused', async () => {
    const path = join(dir, 'manual.pdf');
    await writeFile(path, Buffer.from('%PDF-1.4 tiny'));
    const r = await h.messenger.uploadFile({ senderKey: KAKAO, data: path, fileName: 'manual.pdf', fileType: 'file' });
    expect(r).toEqual({ code: '0000', message: null, url: expect.stringMatching(/\/files\/[0-9a-f]+\.pdf$/), name: 'manual.pdf', size: 13 });
    const send = (messageType: 'FI' | 'AU') =>
      h.messenger.writeFile({ senderKey: KAKAO, userKey: 'up-user', serialNumber: serial(), fileUrl: must(r.url), fileName: 'manual.pdf', fileSize: 13, messageType });
    await expect(send('FI')).resolves.toEqual({ code: '0', message: null });
    await expect(send('AU')).resolves.toMatchObject({ code: '-510' });
    const audio = await h.messenger.uploadFile({ senderKey: KAKAO, data: Buffer.alloc(10 * 1024 * 1024 + 1), fileName: 'v.m4a', fileType: 'audio' });
    expect(audio).toEqual({ code: '-510', message: 'InvalidMessageException: an audio file may be at most 10 MB' });
    const small = await h.messenger.uploadFile({ senderKey: KAKAO, data: Buffer.alloc(1000), fileName: 'v.m4a', fileType: 'audio' });
    await expect(h.messenger.writeFile({ senderKey: KAKAO, userKey: 'up-user', serialNumber: serial(), fileUrl: must(small.url), fileName: 'v.m4a', fileSize: 1000, messageType: 'AU' })).resolves.toMatchObject({ code: '0' });
  });

  it('removes the stored uploads on close', async () => {
    const other = await startSandboxHarness({ channels: { [KAKAO]: {} } });
    await other.messenger.uploadImage({ senderKey: KAKAO, data: TINY_PNG, fileName: 'a.png', imageType: 'rich' });
    expect(existsSync(other.sandbox.uploadDir)).toBe(true);
    expect(other.sandbox.uploadDir).toContain('brandwire-sandbox-');
    await other.close();
    expect(existsSync(other.sandbox.uploadDir)).toBe(false);
  });
});
