/** The image formats the messenger shows as image bubbles; everything else (webp, heic, …) is sent as a file. */
export type ImageFormat = 'jpeg' | 'png' | 'gif';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** How many bytes from the start of a file sniffImageFormat needs at most. */
export const IMAGE_SIGNATURE_BYTES = PNG_SIGNATURE.length;

/** The format the first bytes of a file announce (JPEG SOI, PNG signature, GIF87a/GIF89a), if any. */
export function sniffImageFormat(header: Uint8Array): ImageFormat | undefined {
  if (header[0] === 0xff && header[1] === 0xd8 && header[2] === 0xff) {
    return 'jpeg';
  }
  if (PNG_SIGNATURE.every((byte, i) => header[i] === byte)) {
    return 'png';
  }
  const text = String.fromCharCode(...header.subarray(0, 6));
  return text === 'GIF87a' || text === 'GIF89a' ? 'gif' : undefined;
}

/** The media type of a jpg, png or gif by its first bytes; undefined for anything else, whatever its name says. */
export function imageMediaType(header: Uint8Array): `image/${ImageFormat}` | undefined {
  const format = sniffImageFormat(header);
  return format === undefined ? undefined : `image/${format}`;
}
