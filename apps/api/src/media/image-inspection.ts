import { open, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { loadSharp, SHARP_INPUT } from './load-sharp';
import { IMAGE_MAX_PIXELS, unsupportedImageReason } from './media-limits';
import { IMAGE_SIGNATURE_BYTES, type ImageFormat, sniffImageFormat } from '@brandwire/domain';

// the format sniffing is the domain's, shared with the API client and the sandbox messenger
export type { ImageFormat } from '@brandwire/domain';

export interface ImageInfo {
  format: ImageFormat;
  /** Width as displayed, i.e. with the EXIF orientation applied. */
  width: number;
  /** Height as displayed, i.e. with the EXIF orientation applied. */
  height: number;
  /** File size in bytes. */
  bytes: number;
  /** EXIF orientation tag (1–8) when the file carries one. */
  orientation?: number;
  /** True for a GIF with more than one frame. */
  animated: boolean;
}

const HEADER_BYTES = IMAGE_SIGNATURE_BYTES;

const IMAGE_TYPES = new Set(['image/jpeg', 'image/jpg', 'image/pjpeg', 'image/png', 'image/gif']);
const IMAGE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.jpe', '.jfif', '.png', '.gif']);

/** Whether the client declared a jpg/png/gif, by Content-Type or by file extension. */
export function claimsImage(contentType?: string, fileName?: string): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return IMAGE_TYPES.has(type) || (fileName !== undefined && IMAGE_EXTENSIONS.has(extname(fileName).toLowerCase()));
}

async function readHeader(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const header = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(header, 0, HEADER_BYTES, 0);
    return header.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Format, displayed size and orientation from the magic bytes and the image header, without decoding pixels.
 * Undefined when the file is not a jpg, png or gif, or its header cannot be parsed. File-system errors throw.
 */
export async function readImageInfo(path: string): Promise<ImageInfo | undefined> {
  const [header, { size }] = await Promise.all([readHeader(path), stat(path)]);
  const sniffed = sniffImageFormat(header);
  if (!sniffed) {
    return undefined;
  }
  let meta;
  try {
    // The pixel limit would reject a large image as unreadable; here we want its size, to refuse it by name.
    meta = await loadSharp()(path, { ...SHARP_INPUT, limitInputPixels: false }).metadata();
  } catch {
    return undefined; // sharp reports an unparseable header as a plain Error; there is nothing else to distinguish
  }
  if (meta.format !== sniffed) {
    return undefined;
  }
  const info: ImageInfo = {
    format: sniffed,
    width: meta.autoOrient.width,
    height: meta.autoOrient.height,
    bytes: size,
    animated: (meta.pages ?? 1) > 1,
  };
  if (meta.orientation !== undefined) {
    info.orientation = meta.orientation;
  }
  return info;
}

/**
 * A real jpg, png or gif: magic bytes and header agree, and the pixel data decodes completely (so a renamed text
 * file, a truncated or corrupted JPEG, a webp or a heic gives undefined). The decoding check is a resize to a
 * thumbnail, which JPEG shrink-on-load makes cheap while still reading every byte of the file; all GIF frames are
 * checked. Images above the pixel limit are returned undecoded: `unsupportedImageReason` rejects them.
 */
export async function inspectImage(path: string): Promise<ImageInfo | undefined> {
  const info = await readImageInfo(path);
  if (!info || info.width * info.height > IMAGE_MAX_PIXELS) {
    return info;
  }
  try {
    await loadSharp()(path, { ...SHARP_INPUT, animated: info.animated })
      .resize(16, 16, { fit: 'inside' })
      .raw()
      .toBuffer();
  } catch {
    return undefined; // truncated or corrupt pixel data
  }
  return info;
}

/** `readImageInfo` for the preparation steps: their input must already have passed `inspectImage`. */
export async function readSupportedImage(path: string): Promise<ImageInfo> {
  const info = await readImageInfo(path);
  if (!info) {
    throw new Error(`${path} is not a jpg, png or gif`);
  }
  const reason = unsupportedImageReason(info.width, info.height);
  if (reason) {
    throw new Error(reason);
  }
  return info;
}
