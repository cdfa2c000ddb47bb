import { readFile } from 'node:fs/promises';
import { inspectImage } from './image-inspection';
import { IMAGE_MAX_BYTES } from './media-limits';
import { checkRichGeometry, padForRich } from './rich-image';
import { BLUE, colourDistance, GREEN, imageDir, pixelAt, RED, WHITE, writeGif, writeJpeg, writeNoise, writePng, writeRotatedJpeg } from './test-support/images';

describe('padForRich', () => {
  let files: Awaited<ReturnType<typeof imageDir>>;
  beforeAll(async () => {
    files = await imageDir();
  });
  afterAll(() => files.cleanup());

  it('pads a tall 300×800 JPEG with white to 600×800 (3:4), the picture centred and not enlarged', async () => {
    const out = files.file('tall-out.jpg');
    const result = await padForRich(await writeJpeg(files.file('tall.jpg'), 300, 800), out);

    expect(result).toEqual({ format: 'jpeg', width: 600, height: 800, bytes: (await readFile(out)).length, animated: false });
    await expect(inspectImage(out)).resolves.toMatchObject({ format: 'jpeg', width: 600, height: 800 });
    for (const [x, y] of [[0, 0], [599, 0], [0, 799], [599, 799], [140, 400], [460, 400]] as const) {
      expect(colourDistance(await pixelAt(out, x, y), WHITE)).toBeLessThanOrEqual(8);
    }
    expect(colourDistance(await pixelAt(out, 300, 400), RED)).toBeLessThanOrEqual(12);
    expect(colourDistance(await pixelAt(out, 160, 10), RED)).toBeLessThanOrEqual(12);
  });

  it('pads a wide 4000×500 PNG to 4000×2000 (2:1) and keeps it a PNG', async () => {
    const out = files.file('wide-out.png');
    const result = await padForRich(await writePng(files.file('wide.png'), 4000, 500), out);

    expect(result).toMatchObject({ format: 'png', width: 4000, height: 2000 });
    expect(checkRichGeometry(result.width, result.height)).toEqual({ ok: true });
    await expect(inspectImage(out)).resolves.toMatchObject({ format: 'png', width: 4000, height: 2000 });
    expect(await pixelAt(out, 0, 0)).toEqual(WHITE);
    expect(await pixelAt(out, 3999, 1999)).toEqual(WHITE);
    expect(await pixelAt(out, 2000, 749)).toEqual(WHITE);
    expect(await pixelAt(out, 2000, 750)).toEqual(GREEN);
    expect(await pixelAt(out, 2000, 1249)).toEqual(GREEN);
  });

  it('widens a small picture to a 500 px canvas instead of enlarging it', async () => {
    const out = files.file('small-out.jpg');
    const result = await padForRich(await writeJpeg(files.file('small.jpg'), 300, 100), out);
    expect(result).toMatchObject({ width: 500, height: 250 });
    expect(colourDistance(await pixelAt(out, 250, 125), RED)).toBeLessThanOrEqual(12);
    expect(colourDistance(await pixelAt(out, 90, 125), WHITE)).toBeLessThanOrEqual(8);
  });

  it('applies the EXIF orientation before padding', async () => {
    const out = files.file('rotated-out.jpg');
    const result = await padForRich(await writeRotatedJpeg(files.file('rotated.jpg')), out);

    expect(result).toMatchObject({ format: 'jpeg', width: 500, height: 600 });
    const written = await inspectImage(out);
    expect(written).toMatchObject({ width: 500, height: 600 });
    expect(written?.orientation ?? 1).toBe(1);
    expect(colourDistance(await pixelAt(out, 250, 100), RED)).toBeLessThanOrEqual(12);
    expect(colourDistance(await pixelAt(out, 250, 500), BLUE)).toBeLessThanOrEqual(12);
    expect(colourDistance(await pixelAt(out, 10, 300), WHITE)).toBeLessThanOrEqual(8);
  });

  it('copies an image that already passes unchanged', async () => {
    const source = await writeJpeg(files.file('fine.jpg'), 800, 600);
    const out = files.file('fine-out.jpg');
    await expect(padForRich(source, out)).resolves.toMatchObject({ format: 'jpeg', width: 800, height: 600 });
    expect((await readFile(out)).equals(await readFile(source))).toBe(true);
  });

  it('pads every frame of an animated GIF and keeps it an animated GIF', async () => {
    const out = files.file('anim-out.gif');
    const result = await padForRich(await writeGif(files.file('anim.gif'), 100, 300, 2), out);
    expect(result).toMatchObject({ format: 'gif', width: 500, height: 300, animated: true });
    await expect(inspectImage(out)).resolves.toMatchObject({ format: 'gif', width: 500, height: 300, animated: true });
    expect(await pixelAt(out, 0, 0)).toEqual(WHITE);
    expect(colourDistance(await pixelAt(out, 250, 150), RED)).toBeLessThanOrEqual(12);
  });

  it('brings a 6000×4000 noise JPEG (about 20 MB) under 5 MB, within 4096 px and the rich geometry', async () => {
    const source = await writeNoise(files.file('noise.jpg'), 6000, 4000, 'jpeg');
    expect((await readFile(source)).length).toBeGreaterThan(3 * IMAGE_MAX_BYTES);
    const out = files.file('noise-out.jpg');
    const result = await padForRich(source, out);

    expect(result.format).toBe('jpeg');
    expect(result.bytes).toBeLessThanOrEqual(IMAGE_MAX_BYTES);
    expect((await readFile(out)).length).toBe(result.bytes);
    expect(Math.max(result.width, result.height)).toBeLessThanOrEqual(4096);
    expect(checkRichGeometry(result.width, result.height)).toEqual({ ok: true });
    expect(result.width / result.height).toBeCloseTo(1.5, 2);
  }, 60_000);

  it('scales a noise PNG above 5 MB down until it fits, staying a PNG', async () => {
    const out = files.file('noise-out.png');
    const result = await padForRich(await writeNoise(files.file('noise.png'), 2000, 1500, 'png'), out);
    expect(result).toMatchObject({ format: 'png' });
    expect(result.bytes).toBeLessThanOrEqual(IMAGE_MAX_BYTES);
    expect(result.width).toBeLessThan(2000);
    expect(result.width / result.height).toBeCloseTo(4 / 3, 2);
  }, 30_000);

  it('refuses an input that is not a supported image', async () => {
    await expect(padForRich(await writeJpeg(files.file('thin.jpg'), 10, 400), files.file('thin-out.jpg'))).rejects.toThrow('at least 20 px');
  });
});
