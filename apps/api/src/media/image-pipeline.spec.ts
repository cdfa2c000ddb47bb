import { JPEG_MIN_QUALITY, nextAttempt, type EncodeToFitOptions } from './image-pipeline';

const MB = 1024 * 1024;
const jpeg: EncodeToFitOptions = { format: 'jpeg', maxBytes: 5 * MB, quality: 85, minScale: 0.2 };
const png: EncodeToFitOptions = { ...jpeg, format: 'png' };

describe('nextAttempt', () => {
  it('lowers JPEG quality first and keeps the size when that should be enough', () => {
    expect(nextAttempt({ scale: 1, quality: 85 }, 5.5 * MB, jpeg)).toEqual({ scale: 1, quality: 75 });
  });

  it('also scales by the square root of the remaining size ratio', () => {
    const next = nextAttempt({ scale: 1, quality: 85 }, 20 * MB, jpeg);
    expect(next?.quality).toBe(75);
    expect(next?.scale).toBeCloseTo(Math.sqrt((0.9 * 5) / (20 * 0.75)), 6);
  });

  it('stops lowering JPEG quality at the minimum', () => {
    expect(nextAttempt({ scale: 0.5, quality: JPEG_MIN_QUALITY }, 10 * MB, jpeg)).toEqual({ scale: 0.5 * Math.sqrt(0.45), quality: JPEG_MIN_QUALITY });
  });

  it('only scales PNG and GIF', () => {
    expect(nextAttempt({ scale: 1, quality: 85 }, 9 * MB, png)).toEqual({ scale: Math.sqrt(0.5), quality: 85 });
  });

  it('does not go below the minimum scale, and gives up there', () => {
    expect(nextAttempt({ scale: 0.3, quality: 85 }, 100 * MB, png)).toEqual({ scale: 0.2, quality: 85 });
    expect(nextAttempt({ scale: 0.2, quality: 85 }, 100 * MB, png)).toBeUndefined();
    expect(nextAttempt({ scale: 0.2, quality: JPEG_MIN_QUALITY }, 100 * MB, jpeg)).toBeUndefined();
  });
});
