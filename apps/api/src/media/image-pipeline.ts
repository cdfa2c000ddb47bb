import type { OutputInfo, Sharp } from 'sharp';
import type { ImageFormat, ImageInfo } from './image-inspection';
import { loadSharp, SHARP_INPUT } from './load-sharp';

/** One try: `scale` multiplies the caller's base size (1 = unchanged), `quality` applies to JPEG only. */
export interface EncodeAttempt {
  scale: number;
  quality: number;
}

export interface EncodeToFitOptions {
  format: ImageFormat;
  maxBytes: number;
  /** JPEG quality of the first try. */
  quality: number;
  /** Smallest scale worth sending; below it the encoder gives up. */
  minScale: number;
}

export interface Encoded {
  data: Buffer;
  width: number;
  /** Height of one frame for an animated GIF. */
  height: number;
  fits: boolean;
  attempts: number;
}

export const JPEG_MIN_QUALITY = 70;
const JPEG_QUALITY_STEP = 10;
/** A quality step of 10 shrinks a JPEG by roughly a quarter; used to estimate the next scale. */
const JPEG_STEP_GAIN = 0.75;
/** Aim below the limit so that the estimate's error rarely needs one more try. */
const SAFETY = 0.9;
const MAX_ATTEMPTS = 5;

/**
 * The next try after an encoding of `bytes` that was too large, or undefined when nothing smaller is left to try.
 * JPEG first drops quality (down to 70), and every try also scales by the square root of the size ratio, since
 * bytes grow with the pixel count.
 */
export function nextAttempt(last: EncodeAttempt, bytes: number, options: EncodeToFitOptions): EncodeAttempt | undefined {
  const lowerQuality = options.format === 'jpeg' && last.quality > JPEG_MIN_QUALITY;
  const quality = lowerQuality ? Math.max(JPEG_MIN_QUALITY, last.quality - JPEG_QUALITY_STEP) : last.quality;
  const expected = lowerQuality ? bytes * JPEG_STEP_GAIN : bytes;
  const wanted = (options.maxBytes * SAFETY) / expected;
  const scale = Math.max(options.minScale, Math.min(1, last.scale * Math.sqrt(Math.min(1, wanted))));
  if (scale >= last.scale && quality === last.quality) {
    return undefined;
  }
  return { scale, quality };
}

/** The start of every preparation pipeline: all frames of an animated GIF, the EXIF orientation applied first. */
export function openImage(path: string, info: ImageInfo): Sharp {
  return loadSharp()(path, { ...SHARP_INPUT, animated: info.animated }).autoOrient();
}

/** EXIF orientation 2–8: the stored pixels are not the displayed ones. */
export const needsRotation = (info: ImageInfo): boolean => (info.orientation ?? 1) > 1;

function encode(pipeline: Sharp, format: ImageFormat, quality: number): Sharp {
  switch (format) {
    case 'jpeg':
      return pipeline.jpeg({ quality });
    case 'png':
      return pipeline.png();
    case 'gif':
      return pipeline.gif();
  }
}

/**
 * Encodes `build(attempt)` in `format`, retrying at lower JPEG quality and smaller scale until the result is at
 * most `maxBytes`. Gives up after a few tries or at `minScale` and returns the last result with `fits: false`.
 */
export async function encodeToFit(build: (attempt: EncodeAttempt) => Sharp, options: EncodeToFitOptions): Promise<Encoded> {
  let attempt: EncodeAttempt = { scale: 1, quality: options.quality };
  for (let n = 1; ; n += 1) {
    const output: { data: Buffer; info: OutputInfo } = await encode(build(attempt), options.format, attempt.quality).toBuffer({
      resolveWithObject: true,
    });
    const { data, info } = output;
    const result = { data, width: info.width, height: info.pageHeight ?? info.height, attempts: n };
    if (data.length <= options.maxBytes) {
      return { ...result, fits: true };
    }
    const next = n < MAX_ATTEMPTS ? nextAttempt(attempt, data.length, options) : undefined;
    if (!next) {
      return { ...result, fits: false };
    }
    attempt = next;
  }
}
