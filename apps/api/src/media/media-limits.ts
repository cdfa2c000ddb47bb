/**
 * Size and geometry limits for images and files sent to the messenger.
 *
 * The spec writes "5 MB", "300 MB" and "10 MB" without a base; we read them all as binary
 * megabytes (MiB) so that one unit is used everywhere.
 */
const MiB = 1024 * 1024;

/** Image upload and image bubble limit (spec, Limits: "image size up to 5 MB"). */
export const IMAGE_MAX_BYTES = 5 * MiB;
/** Plain photos are scaled down to fit inside this square (spec, Limits: "4096 px long side"). */
export const PLAIN_MAX_LONG_SIDE = 4096;

/** Rich image geometry (spec, Limits: "aspect ratio 3:4 to 2:1, width at least 500 px"); ratio is width / height. */
export const RICH_MIN_WIDTH = 500;
export const RICH_RATIO_MIN = 3 / 4;
export const RICH_RATIO_MAX = 2;
/**
 * Long side of a padded rich image. Not a messenger rule: a card never shows more, and capping in the same
 * pipeline as the padding keeps the first encoding under 5 MB for ordinary photos (a 4000×3000 photo padded
 * to 2:1 is 6000×3000 uncapped).
 */
export const RICH_MAX_LONG_SIDE = 4096;

/** Messenger limits for file bubbles by `fileType` (upstream notes: file and video ≤ 300 MB, audio ≤ 10 MB). */
export const FILE_MAX_BYTES = 300 * MiB;
export const VIDEO_MAX_BYTES = 300 * MiB;
export const AUDIO_MAX_BYTES = 10 * MiB;
export type FileType = 'file' | 'audio' | 'video';
export const FILE_TYPE_MAX_BYTES: Readonly<Record<FileType, number>> = { file: FILE_MAX_BYTES, audio: AUDIO_MAX_BYTES, video: VIDEO_MAX_BYTES };

/**
 * "Very small or very tall images are unsupported" (spec, attachment send rule 4). The spec gives no numbers; ours:
 * - a side under 20 px: nothing recognisable is left in a bubble, and it excludes 1×1 tracking pixels and spacers;
 * - one side more than 20 times the other (either direction): the bubble shows a hairline, and padding such a strip
 *   to 3:4 or 2:1 leaves the picture on less than a fifteenth of the card;
 * - more than 120 megapixels: above every common phone camera's output (108 MP sensors included), and it bounds
 *   decoding memory (a 90° EXIF rotation holds the whole image, about 360 MB at this size) against
 *   decompression bombs. Such files are not decoded at all.
 */
export const IMAGE_MIN_SIDE = 20;
export const IMAGE_MAX_ELONGATION = 20;
export const IMAGE_MAX_PIXELS = 120_000_000;

/** Why an image of this displayed size cannot be sent, or undefined when it can. */
export function unsupportedImageReason(width: number, height: number): string | undefined {
  if (Math.min(width, height) < IMAGE_MIN_SIDE) {
    return `image is ${width}×${height} px; each side must be at least ${IMAGE_MIN_SIDE} px`;
  }
  if (Math.max(width, height) > IMAGE_MAX_ELONGATION * Math.min(width, height)) {
    return `image is ${width}×${height} px; one side may be at most ${IMAGE_MAX_ELONGATION} times the other`;
  }
  if (width * height > IMAGE_MAX_PIXELS) {
    return `image is ${width}×${height} px; at most ${IMAGE_MAX_PIXELS / 1_000_000} megapixels are supported`;
  }
  return undefined;
}
