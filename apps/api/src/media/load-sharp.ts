import type { SharpOptions } from 'sharp';
import { IMAGE_MAX_PIXELS } from './media-limits';

type SharpModule = typeof import('sharp');

let loaded: SharpModule | undefined;

/**
 * sharp, required on first use: loading libvips costs start-up time that commands and routes without images
 * should not pay. The libvips operation cache is switched off: every upload is processed once, and the file cache
 * would keep deleted temp files open.
 */
export function loadSharp(): SharpModule {
  if (!loaded) {
    const sharp = require('sharp') as SharpModule;
    sharp.cache(false);
    loaded = sharp;
  }
  return loaded;
}

/**
 * Input options for every pipeline. `failOn: 'error'` rejects truncated and corrupt data but accepts the harmless
 * warnings that phone JPEGs often carry (such as extraneous bytes before a marker).
 */
export const SHARP_INPUT: Readonly<SharpOptions> = { failOn: 'error', limitInputPixels: IMAGE_MAX_PIXELS };
