import { encodeToFit } from './image-pipeline';
import { loadSharp } from './load-sharp';
import { imageDir, writeNoise } from './test-support/images';

describe('encodeToFit', () => {
  let files: Awaited<ReturnType<typeof imageDir>>;
  let noise: string;
  beforeAll(async () => {
    files = await imageDir();
    noise = await writeNoise(files.file('noise.jpg'), 1000, 800, 'jpeg');
  });
  afterAll(() => files.cleanup());

  const build = ({ scale }: { scale: number }) =>
    loadSharp()(noise).resize({ width: Math.round(1000 * scale), height: Math.round(800 * scale), fit: 'fill' });

  it('returns the first encoding when it fits', async () => {
    const result = await encodeToFit(build, { format: 'jpeg', maxBytes: 5 * 1024 * 1024, quality: 85, minScale: 0.5 });
    expect(result).toMatchObject({ fits: true, attempts: 1, width: 1000, height: 800 });
  });

  it('retries smaller until it fits', async () => {
    const result = await encodeToFit(build, { format: 'jpeg', maxBytes: 200_000, quality: 85, minScale: 0.1 });
    expect(result.fits).toBe(true);
    expect(result.data.length).toBeLessThanOrEqual(200_000);
    expect(result.attempts).toBeGreaterThan(1);
    expect(result.width).toBeLessThan(1000);
  });

  it('gives up at the minimum scale and returns the last, still too large, encoding', async () => {
    const result = await encodeToFit(build, { format: 'png', maxBytes: 10_000, quality: 85, minScale: 0.5 });
    expect(result).toMatchObject({ fits: false, width: 500, height: 400 });
    expect(result.data.length).toBeGreaterThan(10_000);
  });
});
