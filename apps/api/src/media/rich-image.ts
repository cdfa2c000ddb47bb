import { copyFile, writeFile } from 'node:fs/promises';
import { encodeToFit, needsRotation, openImage, type EncodeAttempt } from './image-pipeline';
import { readSupportedImage, type ImageInfo } from './image-inspection';
import { IMAGE_MAX_BYTES, RICH_MAX_LONG_SIDE, RICH_MIN_WIDTH } from './media-limits';

export type RichGeometryCheck = { ok: true } | { ok: false; message: string };

/** A canvas and where the picture sits on it. */
export interface RichCanvas {
  width: number;
  height: number;
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** JPEG quality of padded rich images (first try; lowered only when the result is above 5 MB). */
export const RICH_JPEG_QUALITY = 85;
const WHITE = { r: 255, g: 255, b: 255, alpha: 1 };

// The ratio rules RICH_RATIO_MIN (3/4) and RICH_RATIO_MAX (2) in integers, so that no rounding decides an edge case.
const atLeastThreeToFour = (width: number, height: number): boolean => 4 * width >= 3 * height;
const atMostTwoToOne = (width: number, height: number): boolean => width <= 2 * height;

/** Rich image rules: width at least 500 px, aspect ratio (width:height) from 3:4 to 2:1. */
export function checkRichGeometry(width: number, height: number): RichGeometryCheck {
  if (width < RICH_MIN_WIDTH) {
    return { ok: false, message: `a rich image must be at least ${RICH_MIN_WIDTH} px wide; this one is ${width}×${height} px` };
  }
  if (!atLeastThreeToFour(width, height) || !atMostTwoToOne(width, height)) {
    return { ok: false, message: `a rich image must have an aspect ratio from 3:4 to 2:1 (width:height); this one is ${width}×${height} px` };
  }
  return { ok: true };
}

/**
 * The smallest canvas that holds a width×height picture and passes `checkRichGeometry`: at least 500 px wide, at
 * least 3/4 as wide as the picture is high, then at least half as high as it is wide. The picture is centred.
 */
export function richCanvas(width: number, height: number): RichCanvas {
  const canvasWidth = Math.max(width, RICH_MIN_WIDTH, Math.ceil((3 * height) / 4));
  const canvasHeight = Math.max(height, Math.ceil(canvasWidth / 2));
  const left = Math.floor((canvasWidth - width) / 2);
  const top = Math.floor((canvasHeight - height) / 2);
  return { width: canvasWidth, height: canvasHeight, left, right: canvasWidth - width - left, top, bottom: canvasHeight - height - top };
}

/**
 * Prepares an image for a rich bubble in one sharp pipeline: orientation from EXIF, white margins up to the rich
 * geometry (a picture narrower than 500 px gets a 500 px wide canvas; it is never enlarged), a long side of at most
 * 4096 px, and the same format (JPEG at quality 85, PNG, GIF with its animation). An image that already passes
 * and needs none of this is copied unchanged. When the encoding is above 5 MB it is retried at lower JPEG quality
 * and smaller scale; if it still does not fit, the returned `bytes` is above IMAGE_MAX_BYTES and the caller fails
 * the item with IMAGE_TOO_LARGE. The input must have passed `inspectImage` and `unsupportedImageReason`.
 */
export async function padForRich(inPath: string, outPath: string): Promise<ImageInfo> {
  const info = await readSupportedImage(inPath);
  const full = richCanvas(info.width, info.height);
  const baseScale = Math.min(1, RICH_MAX_LONG_SIDE / Math.max(full.width, full.height));
  if (checkRichGeometry(info.width, info.height).ok && !needsRotation(info) && baseScale === 1 && info.bytes <= IMAGE_MAX_BYTES) {
    await copyFile(inPath, outPath);
    return info;
  }

  const build = (attempt: EncodeAttempt) => {
    const scale = baseScale * attempt.scale;
    const width = Math.max(1, Math.round(info.width * scale));
    const height = Math.max(1, Math.round(info.height * scale));
    const canvas = richCanvas(width, height);
    let pipeline = openImage(inPath, info);
    if (width !== info.width || height !== info.height) {
      pipeline = pipeline.resize({ width, height, fit: 'fill', withoutEnlargement: true });
    }
    if (canvas.width !== width || canvas.height !== height) {
      const { top, bottom, left, right } = canvas;
      pipeline = pipeline.extend({ top, bottom, left, right, background: WHITE });
    }
    return pipeline;
  };
  // Smaller than this, the canvas would stay 500 px wide and only the picture on it would shrink.
  const minScale = Math.min(1, RICH_MIN_WIDTH / Math.max(info.width, (3 * info.height) / 4) / baseScale);
  const encoded = await encodeToFit(build, { format: info.format, maxBytes: IMAGE_MAX_BYTES, quality: RICH_JPEG_QUALITY, minScale });
  await writeFile(outPath, encoded.data);
  return { format: info.format, width: encoded.width, height: encoded.height, bytes: encoded.data.length, animated: info.animated };
}
