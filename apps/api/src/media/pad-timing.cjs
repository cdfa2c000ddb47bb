#!/usr/bin/env node
/*
 * Timing of the rich padding on 12-megapixel JPEGs (not a test: timings depend on the machine and its load).
 *   node apps/api/src/media/pad-timing.cjs [runs]
 * Loads the TypeScript modules through @swc/core (already a dev dependency), so no build is needed.
 */
'use strict';
const { transformSync } = require('@swc/core');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};

const { padForRich } = require('./rich-image.ts');
const { preparePlain } = require('./plain-image.ts');
const { inspectImage } = require('./image-inspection.ts');
const { loadSharp } = require('./load-sharp.ts');

/** A photo-like JPEG (smooth noise, about 0.37 bytes per pixel at quality 90) of width×height. */
async function photo(file, width, height, orientation) {
  const sharp = loadSharp();
  const small = { width: Math.round(width / 4), height: Math.round(height / 4), channels: 3 };
  const raw = require('node:crypto').randomBytes(small.width * small.height * 3);
  let pipeline = sharp(raw, { raw: small }).resize(width, height, { kernel: 'cubic' }).blur(1.5).jpeg({ quality: 90 });
  if (orientation) pipeline = pipeline.withMetadata({ orientation });
  await pipeline.toFile(file);
  return file;
}

async function time(label, runs, fn) {
  const ms = [];
  let last;
  for (let i = 0; i < runs; i += 1) {
    const start = process.hrtime.bigint();
    last = await fn(i);
    ms.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const sorted = [...ms].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const out = last && last.width ? ` -> ${last.width}x${last.height} ${last.format} ${(last.bytes / 1e6).toFixed(2)} MB` : '';
  console.log(`${label.padEnd(58)} median ${median.toFixed(0).padStart(4)} ms  [${ms.map((m) => m.toFixed(0)).join(' ')}]${out}`);
}

async function main() {
  const runs = Number(process.argv[2] ?? 7);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brandwire-pad-timing-'));
  try {
    const wide = await photo(path.join(dir, 'wide.jpg'), 6000, 2000);
    const tall = await photo(path.join(dir, 'tall.jpg'), 2000, 6000);
    const rotated = await photo(path.join(dir, 'rotated.jpg'), 4000, 3000, 6);
    const landscape = await photo(path.join(dir, 'landscape.jpg'), 4000, 3000);
    console.log(`node ${process.version}, ${os.cpus().length} cpus, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, ${runs} runs each`);
    const out = (i) => path.join(dir, `out-${i}.jpg`);
    await time('padForRich 6000x2000 (12 MP) -> 2:1', runs, (i) => padForRich(wide, out(i)));
    await time('padForRich 2000x6000 (12 MP) -> 3:4', runs, (i) => padForRich(tall, out(i)));
    await time('padForRich 4000x3000 EXIF 6 (rotate, no padding)', runs, (i) => padForRich(rotated, out(i)));
    await time('preparePlain 4000x3000 EXIF 6 (rotate)', runs, (i) => preparePlain(rotated, out(i)));
    await time('inspectImage 4000x3000 (decode check)', runs, () => inspectImage(landscape));
    const sharp = loadSharp();
    await time('reference: sharp pad 4000x3000 to 6000x3000, q85, no cap', runs, (i) =>
      sharp(landscape)
        .autoOrient()
        .extend({ left: 1000, right: 1000, background: '#ffffff' })
        .jpeg({ quality: 85 })
        .toFile(out(i))
        .then((info) => ({ ...info, bytes: info.size })),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
