import { extname } from 'node:path';
import { type ImageInfo, IMAGE_MAX_BYTES, checkRichGeometry, inspectImage, padForRich, preparePlain, unsupportedImageReason } from '../media';

export type PreparedImage = { ok: true; path: string; info: ImageInfo } | { ok: false; code: 'UNSUPPORTED_IMAGE' | 'IMAGE_TOO_LARGE'; message: string };

/** How an image is made ready for the messenger. */
export type ImagePreparation = 'rich-as-uploaded' | 'rich-padded' | 'plain';

const TOO_LARGE = `the image is larger than ${IMAGE_MAX_BYTES / 1024 / 1024} MB`;

/**
 * Checks an uploaded file is a real jpg, png or gif of a supported size and prepares it:
 * - `rich-as-uploaded` (image upload, imageType rich): passed as uploaded; its geometry must already fit;
 * - `rich-padded` (attachment send, imageStyle rich): padded with white margins into 3:4..2:1, width >= 500;
 * - `plain`: orientation fixed from EXIF, scaled down above 5 MB or a 4096 px long side.
 * The prepared file is written next to the upload (`<upload>.prepared<ext>`) unless passed as uploaded.
 */
export async function prepareImage(path: string, how: ImagePreparation): Promise<PreparedImage> {
  const info = await inspectImage(path);
  if (!info) return { ok: false, code: 'UNSUPPORTED_IMAGE', message: 'the file is not a readable jpg, png or gif image' };
  const unsupported = unsupportedImageReason(info.width, info.height);
  if (unsupported) return { ok: false, code: 'UNSUPPORTED_IMAGE', message: unsupported };
  switch (how) {
    case 'rich-as-uploaded': {
      const geometry = checkRichGeometry(info.width, info.height);
      if (!geometry.ok) return { ok: false, code: 'UNSUPPORTED_IMAGE', message: geometry.message };
      if (info.bytes > IMAGE_MAX_BYTES) return { ok: false, code: 'IMAGE_TOO_LARGE', message: TOO_LARGE };
      return { ok: true, path, info };
    }
    case 'rich-padded':
    case 'plain': {
      const out = `${path}.prepared${extname(path) || `.${info.format === 'jpeg' ? 'jpg' : info.format}`}`;
      const prepared = how === 'plain' ? await preparePlain(path, out) : await padForRich(path, out);
      if (prepared.bytes > IMAGE_MAX_BYTES) return { ok: false, code: 'IMAGE_TOO_LARGE', message: `${TOO_LARGE}, even after scaling down` };
      return { ok: true, path: out, info: prepared };
    }
    default: {
      const unreachable: never = how;
      throw new Error(`unknown preparation ${String(unreachable)}`);
    }
  }
}
