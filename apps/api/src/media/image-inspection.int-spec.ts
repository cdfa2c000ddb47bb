import { writeFile } from 'node:fs/promises';
import { inspectImage, readSupportedImage } from './image-inspection';
import {
  imageDir,
  writeAvif,
  writeGif,
  writeHeicHeader,
  writeJpeg,
  writeNoise,
  writePng,
  writePngHeaderOnly,
  writeRotatedJpeg,
  writeTruncated,
  writeWebp,
} from './test-support/images';

describe('inspectImage', () => {
  let files: Awaited<ReturnType<typeof imageDir>>;
  beforeAll(async () => {
    files = await imageDir();
  });
  afterAll(() => files.cleanup());

  it('reads format, size and bytes of a JPEG, a PNG and a GIF', async () => {
    const jpeg = await writeJpeg(files.file('a.jpg'), 300, 800);
    const png = await writePng(files.file('b.png'), 4000, 500);
    const gif = await writeGif(files.file('c.gif'), 120, 90);
    await expect(inspectImage(jpeg)).resolves.toEqual({ format: 'jpeg', width: 300, height: 800, bytes: expect.any(Number), animated: false });
    await expect(inspectImage(png)).resolves.toMatchObject({ format: 'png', width: 4000, height: 500, animated: false });
    await expect(inspectImage(gif)).resolves.toMatchObject({ format: 'gif', width: 120, height: 90, animated: false });
    expect((await inspectImage(jpeg))?.bytes).toBeGreaterThan(100);
  });

  it('gives the displayed size and the orientation of an EXIF-rotated JPEG', async () => {
    const path = await writeRotatedJpeg(files.file('rotated.jpg'));
    await expect(inspectImage(path)).resolves.toMatchObject({ format: 'jpeg', width: 400, height: 600, orientation: 6 });
  });

  it('marks an animated GIF and gives the size of one frame', async () => {
    const path = await writeGif(files.file('anim.gif'), 100, 300, 3);
    await expect(inspectImage(path)).resolves.toMatchObject({ format: 'gif', width: 100, height: 300, animated: true });
  });

  it('gives undefined for webp, heic and avif, a renamed text file, an empty file and a truncated JPEG or PNG', async () => {
    const text = files.file('notes.jpg');
    await writeFile(text, 'this is not a picture\n');
    const empty = files.file('empty.png');
    await writeFile(empty, '');
    const jpeg = await writeNoise(files.file('noise.jpg'), 600, 400, 'jpeg');
    const png = await writeNoise(files.file('noise.png'), 600, 400, 'png');
    const candidates = [
      await writeWebp(files.file('photo.webp')),
      await writeHeicHeader(files.file('IMG_0001.heic')),
      await writeAvif(files.file('photo.avif')),
      text,
      empty,
      await writeTruncated(files.file('truncated.jpg'), jpeg),
      await writeTruncated(files.file('truncated.png'), png),
    ];
    const results = await Promise.all(candidates.map((path) => inspectImage(path)));
    expect(results).toEqual(candidates.map(() => undefined));
    await expect(inspectImage(jpeg)).resolves.toMatchObject({ format: 'jpeg' });
  });

  it('gives undefined for a JPEG signature in front of something else', async () => {
    const path = files.file('fake.jpg');
    await writeFile(path, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('definitely not a JFIF segment')]));
    await expect(inspectImage(path)).resolves.toBeUndefined();
  });

  it('does not decode an image above the pixel limit, and the preparation steps refuse it', async () => {
    const path = await writePngHeaderOnly(files.file('bomb.png'), 11_000, 11_000);
    await expect(inspectImage(path)).resolves.toMatchObject({ format: 'png', width: 11_000, height: 11_000 });
    await expect(readSupportedImage(path)).rejects.toThrow('at most 120 megapixels');
  });

  it('lets a missing file fail loudly', async () => {
    await expect(inspectImage(files.file('missing.jpg'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
