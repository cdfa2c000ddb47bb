import { copyFile, writeFile } from 'node:fs/promises';
import { encodeToFit, needsRotation, openImage, type EncodeAttempt } from './image-pipeline';
import { readSupportedImage, type ImageInfo } from './image-inspection';
import { IMAGE_MAX_BYTES, IMAGE_MIN_SIDE, PLAIN_MAX_LONG_SIDE } from './media-limits';

/** JPEG quality of re-encoded plain photos (first try): tapping the bubble shows them full size. */
export const PLAIN_JPEG_QUALITY = 90;
/** Scaling stops at a quarter of the 4096-px size: a smaller "photo" is not worth sending. */
const PLAIN_MIN_SCALE = 0.25;

/**
 * Prepares an image for a regular photo bubble in one sharp pipeline: orientation fixed from EXIF, scaled down to fit
 * inside 4096×4096 (never enlarged), same format (JPEG at quality 90, PNG, GIF with its animation). Only an image
 * that needs it is re-encoded: one within 5 MB and 4096 px and without EXIF rotation is copied unchanged. A file
 * above 5 MB is first re-encoded at its size, then at lower JPEG quality and smaller scale; if it still does not
 * fit, the returned `bytes` is above IMAGE_MAX_BYTES (IMAGE_TOO_LARGE for the caller). The input must have passed
 * `inspectImage` and `unsupportedImageReason`.
 */
export async function preparePlain(inPath: string, outPath: string): Promise<ImageInfo> {
  const info = await readSupportedImage(inPath);
  const longSide = Math.max(info.width, info.height);
  if (!needsRotation(info) && longSide <= PLAIN_MAX_LONG_SIDE && info.bytes <= IMAGE_MAX_BYTES) {
    await copyFile(inPath, outPath);
    return info;
  }

  const box = Math.min(longSide, PLAIN_MAX_LONG_SIDE);
  const build = (attempt: EncodeAttempt) => {
    const side = Math.max(1, Math.round(box * attempt.scale));
    const pipeline = openImage(inPath, info);
    return side === longSide ? pipeline : pipeline.resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true });
  };
  const shortSide = (Math.min(info.width, info.height) * box) / longSide;
  const minScale = Math.min(1, Math.max(PLAIN_MIN_SCALE, IMAGE_MIN_SIDE / shortSide));
  const encoded = await encodeToFit(build, { format: info.format, maxBytes: IMAGE_MAX_BYTES, quality: PLAIN_JPEG_QUALITY, minScale });
  await writeFile(outPath, encoded.data);
  return { format: info.format, width: encoded.width, height: encoded.height, bytes: encoded.data.length, animated: info.animated };
}
