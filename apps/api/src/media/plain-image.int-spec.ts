import { readFile } from 'node:fs/promises';
import { inspectImage } from './image-inspection';
import { IMAGE_MAX_BYTES } from './media-limits';
import { preparePlain } from './plain-image';
import { BLUE, colourDistance, imageDir, pixelAt, RED, writeGif, writeJpeg, writeNoise, writePng, writeRotatedJpeg } from './test-support/images';

describe('preparePlain', () => {
  let files: Awaited<ReturnType<typeof imageDir>>;
  beforeAll(async () => {
    files = await imageDir();
  });
  afterAll(() => files.cleanup());

  it.each([
    ['a 300×800 JPEG', () => writeJpeg(files.file('tall.jpg'), 300, 800)],
    ['a 4000×500 PNG', () => writePng(files.file('wide.png'), 4000, 500)],
    ['a GIF', () => writeGif(files.file('small.gif'), 200, 100, 2)],
  ])('copies %s within the limits unchanged', async (_name, write) => {
    const source = await write();
    const out = `${source}.out`;
    const result = await preparePlain(source, out);
    expect(result).toEqual(await inspectImage(source));
    expect((await readFile(out)).equals(await readFile(source))).toBe(true);
  });

  it('fixes the orientation of an EXIF-rotated JPEG without scaling it', async () => {
    const out = files.file('rotated-out.jpg');
    const result = await preparePlain(await writeRotatedJpeg(files.file('rotated.jpg')), out);

    expect(result).toMatchObject({ format: 'jpeg', width: 400, height: 600 });
    const written = await inspectImage(out);
    expect(written).toMatchObject({ format: 'jpeg', width: 400, height: 600 });
    expect(written?.orientation ?? 1).toBe(1);
    expect(colourDistance(await pixelAt(out, 200, 50), RED)).toBeLessThanOrEqual(12);
    expect(colourDistance(await pixelAt(out, 200, 550), BLUE)).toBeLessThanOrEqual(12);
  });

  it('scales a 6000×4000 noise JPEG (about 20 MB) into 4096 px and under 5 MB', async () => {
    const out = files.file('noise-out.jpg');
    const result = await preparePlain(await writeNoise(files.file('noise.jpg'), 6000, 4000, 'jpeg'), out);

    expect(result.format).toBe('jpeg');
    expect(result.bytes).toBeLessThanOrEqual(IMAGE_MAX_BYTES);
    expect((await readFile(out)).length).toBe(result.bytes);
    expect(Math.max(result.width, result.height)).toBeLessThanOrEqual(4096);
    expect(result.width / result.height).toBeCloseTo(1.5, 2);
  }, 60_000);

  it('re-encodes a JPEG above 5 MB at its own size when that is enough', async () => {
    const source = await writeNoise(files.file('heavy.jpg'), 2400, 1800, 'jpeg', 100);
    expect((await readFile(source)).length).toBeGreaterThan(IMAGE_MAX_BYTES);
    const result = await preparePlain(source, files.file('heavy-out.jpg'));
    expect(result).toMatchObject({ format: 'jpeg', width: 2400, height: 1800 });
    expect(result.bytes).toBeLessThanOrEqual(IMAGE_MAX_BYTES);
  }, 30_000);

  it('scales a PNG with a long side above 4096 to 4096, keeping the ratio and the format', async () => {
    const out = files.file('long-out.png');
    const result = await preparePlain(await writePng(files.file('long.png'), 5000, 1000), out);
    expect(result).toMatchObject({ format: 'png', width: 4096, height: 819 });
    await expect(inspectImage(out)).resolves.toMatchObject({ format: 'png', width: 4096, height: 819 });
  });

  it('scales every frame of a wide animated GIF', async () => {
    const out = files.file('long-out.gif');
    const result = await preparePlain(await writeGif(files.file('long.gif'), 4500, 300, 2), out);
    expect(result).toMatchObject({ format: 'gif', width: 4096, height: 273, animated: true });
    await expect(inspectImage(out)).resolves.toMatchObject({ format: 'gif', width: 4096, height: 273, animated: true });
  });
});
