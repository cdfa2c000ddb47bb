import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { crc32, deflateSync } from 'node:zlib';
import { join } from 'node:path';
import { loadSharp } from '../load-sharp';

export const RED = { r: 220, g: 30, b: 30 };
export const BLUE = { r: 30, g: 30, b: 220 };
export const GREEN = { r: 30, g: 180, b: 30 };
type Colour = typeof RED;

/** A temp folder for one test file; `cleanup` removes it. */
export async function imageDir(): Promise<{ dir: string; file: (name: string) => string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'brandwire-media-'));
  return { dir, file: (name) => join(dir, name), cleanup: () => rm(dir, { recursive: true, force: true }) };
}

const solid = (width: number, height: number, background: Colour) =>
  loadSharp()({ create: { width, height, channels: 3, background } });

export async function writeJpeg(path: string, width: number, height: number, colour: Colour = RED): Promise<string> {
  await solid(width, height, colour).jpeg({ quality: 90 }).toFile(path);
  return path;
}

export async function writePng(path: string, width: number, height: number, colour: Colour = GREEN): Promise<string> {
  await solid(width, height, colour).png().toFile(path);
  return path;
}

/** Uniform noise: the worst case for every encoder, so a large file. */
export async function writeNoise(path: string, width: number, height: number, format: 'jpeg' | 'png', quality = 90): Promise<string> {
  const pipeline = loadSharp()(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } });
  await (format === 'jpeg' ? pipeline.jpeg({ quality }) : pipeline.png()).toFile(path);
  return path;
}

/**
 * A JPEG stored as 600×400 (left half red, right half blue) with EXIF orientation 6, i.e. displayed rotated 90°
 * clockwise as 400×600 with red on top and blue at the bottom.
 */
export async function writeRotatedJpeg(path: string): Promise<string> {
  const blueHalf = await solid(300, 400, BLUE).png().toBuffer();
  const stored = await solid(600, 400, RED).composite([{ input: blueHalf, left: 300, top: 0 }]).png().toBuffer();
  await loadSharp()(stored).jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toFile(path);
  return path;
}

/** A GIF of `frames` frames (one solid colour each). */
export async function writeGif(path: string, width: number, height: number, frames = 1): Promise<string> {
  const colours = [RED, BLUE, GREEN];
  const pages = await Promise.all(
    Array.from({ length: frames }, (_, i) => solid(width, height, colours[i % colours.length] ?? RED).ensureAlpha().raw().toBuffer()),
  );
  await loadSharp()(Buffer.concat(pages), { raw: { width, height: height * frames, channels: 4, pageHeight: height } })
    .gif({ delay: pages.map(() => 100) })
    .toFile(path);
  return path;
}

export async function writeWebp(path: string): Promise<string> {
  await solid(800, 600, RED).webp().toFile(path);
  return path;
}

/** An AVIF: a real image in the HEIF container that sharp decodes (the prebuilt sharp cannot write HEVC). */
export async function writeAvif(path: string): Promise<string> {
  await solid(800, 600, RED).avif().toFile(path);
  return path;
}

/** The first bytes of an iPhone HEIC (an `ftyp` box with the `heic` brand). */
export async function writeHeicHeader(path: string): Promise<string> {
  const ftyp = Buffer.from('0000001c6674797068656963000000006d69663168656963', 'hex');
  await writeFile(path, Buffer.concat([ftyp, randomBytes(2000)]));
  return path;
}

/** The first half of a valid file. */
export async function writeTruncated(path: string, source: string): Promise<string> {
  const bytes = await readFile(source);
  await writeFile(path, bytes.subarray(0, Math.floor(bytes.length / 2)));
  return path;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG whose header announces width×height but that carries two rows of pixel data: decoding it would fail. */
export async function writePngHeaderOnly(path: string, width: number, height: number): Promise<string> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, adaptive filter, no interlace
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  await writeFile(path, Buffer.concat([signature, pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(Buffer.alloc(2 * (1 + 3 * width)))), pngChunk('IEND', Buffer.alloc(0))]));
  return path;
}

/** The RGB value of one pixel of an image file, as displayed. */
export async function pixelAt(path: string, x: number, y: number): Promise<Colour> {
  const { data } = await loadSharp()(path)
    .autoOrient()
    .extract({ left: x, top: y, width: 1, height: 1 })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { r: data[0] ?? -1, g: data[1] ?? -1, b: data[2] ?? -1 };
}

/** The largest difference of one channel (JPEG is lossy, so colours are compared with a tolerance). */
export function colourDistance(actual: Colour, expected: Colour): number {
  return Math.max(Math.abs(actual.r - expected.r), Math.abs(actual.g - expected.g), Math.abs(actual.b - expected.b));
}

export const WHITE: Colour = { r: 255, g: 255, b: 255 };
