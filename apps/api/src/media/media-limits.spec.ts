import {
  AUDIO_MAX_BYTES,
  FILE_TYPE_MAX_BYTES,
  IMAGE_MAX_BYTES,
  IMAGE_MAX_ELONGATION,
  IMAGE_MIN_SIDE,
  PLAIN_MAX_LONG_SIDE,
  RICH_MIN_WIDTH,
  RICH_RATIO_MAX,
  RICH_RATIO_MIN,
  unsupportedImageReason,
} from './media-limits';

describe('media limits', () => {
  it('holds the spec values', () => {
    expect(IMAGE_MAX_BYTES).toBe(5 * 1024 * 1024);
    expect(PLAIN_MAX_LONG_SIDE).toBe(4096);
    expect(RICH_MIN_WIDTH).toBe(500);
    expect([RICH_RATIO_MIN, RICH_RATIO_MAX]).toEqual([0.75, 2]);
    expect(FILE_TYPE_MAX_BYTES).toEqual({ file: 300 * 1024 * 1024, video: 300 * 1024 * 1024, audio: 10 * 1024 * 1024 });
    expect(AUDIO_MAX_BYTES).toBe(FILE_TYPE_MAX_BYTES.audio);
  });

  describe('unsupportedImageReason', () => {
    it.each([
      [4000, 3000],
      [IMAGE_MIN_SIDE, IMAGE_MIN_SIDE],
      [IMAGE_MIN_SIDE, IMAGE_MIN_SIDE * IMAGE_MAX_ELONGATION],
      [1000 * IMAGE_MAX_ELONGATION, 1000],
      [12_000, 10_000],
    ])('accepts %i×%i', (width, height) => {
      expect(unsupportedImageReason(width, height)).toBeUndefined();
    });

    it.each([
      [19, 500, 'at least 20 px'],
      [500, 1, 'at least 20 px'],
      [100, 2001, 'at most 20 times the other'],
      [20_001, 1000, 'at most 20 times the other'],
      [11_000, 11_000, 'at most 120 megapixels'],
    ])('refuses %i×%i (%s)', (width, height, rule) => {
      expect(unsupportedImageReason(width, height)).toContain(rule);
    });
  });
});
