#!/usr/bin/env node
/**
 * Attachment and upload figures of the real service (SQLite, in-process sandbox messenger):
 *   1. 20 concurrent POST /api/agent/upload/file of 20 MB each, first, on a fresh process: the API's peak RSS
 *      (VmHWM), which shows whether uploads stream to disk;
 *   2. POST /api/agent/send/attachments with one 12-megapixel JPEG (6000x2000, so it is padded to 2:1) and
 *      imageStyle=rich, sequentially: p50 and p99 of the whole request (upload, inspect, pad, re-encode, upload
 *      to the messenger, send);
 *
 *   npm run build && node tools/bench/attachments.mjs        (BENCH_SENDS, default 15)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, openAsBlob } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { CHANNEL, TOKEN, createCustomers, startApi, writeSeed } from './lib/api-service.mjs';
import { stopAll } from './lib/children.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');
const sharp = createRequire(join(repoRoot, 'apps/api/package.json'))('sharp');
const SENDS = Number(process.env.BENCH_SENDS ?? 15);

function peakRssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
  return hwm ? Math.round(Number(hwm[1]) / 1024) : NaN;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function post(url, form) {
  const response = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: form });
  const body = await response.json();
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), 'brandwire-attach-'));
  try {
    const photo = join(tmp, 'photo-12mp.jpg');
    const { data, info } = await sharp({ create: { width: 6000, height: 2000, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
      .blur(1.2)
      .raw()
      .toBuffer({ resolveWithObject: true });
    await sharp(data, { raw: info }).jpeg({ quality: 88 }).toFile(photo);
    const big = join(tmp, 'big.bin');
    writeFileSync(big, Buffer.alloc(20 * 1024 * 1024, 7));

    const api = await startApi({ repoRoot, dataDir: join(tmp, 'data'), seedFile: writeSeed(tmp), logFile: join(tmp, 'api.log') });
    await createCustomers(api.url, ['attach-1']);
    const rssAtStart = peakRssMb(api.pid);

    const uploads = Array.from({ length: 20 }, async () => {
      const form = new FormData();
      form.append('brand', CHANNEL);
      form.append('fileType', 'file');
      form.append('file', await openAsBlob(big), 'big.bin');
      return post(`${api.url}/api/agent/upload/file`, form);
    });
    const replies = await Promise.all(uploads);
    if (!replies.every((r) => r.ok)) throw new Error('an upload failed');
    const rssAfterUploads = peakRssMb(api.pid);

    const times = [];
    for (let i = 0; i < SENDS; i += 1) {
      const form = new FormData();
      form.append('brandKey', CHANNEL);
      form.append('userKey', 'attach-1');
      form.append('imageStyle', 'rich');
      form.append('files', await openAsBlob(photo, { type: 'image/jpeg' }), 'photo-12mp.jpg');
      const started = performance.now();
      const reply = await post(`${api.url}/api/agent/send/attachments`, form);
      times.push(performance.now() - started);
      if (!reply.ok) throw new Error(`attachment send failed: ${JSON.stringify(reply)}`);
    }
    times.sort((a, b) => a - b);
    const rssAfterSends = peakRssMb(api.pid);

    const result = {
      node: process.version,
      photo: { width: 6000, height: 2000, bytes: readFileSync(photo).length },
      attachmentSendMs: { runs: SENDS, p50: Math.round(percentile(times, 50)), p99: Math.round(percentile(times, 99)), min: Math.round(times[0]) },
      peakRssMb: { atStart: rssAtStart, after20ConcurrentUploadsOf20Mb: rssAfterUploads, afterImageSends: rssAfterSends },
      targets: { attachmentP50Ms: 400, peakRssMb: 400 },
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(
      `attachment send (12 MP JPEG, rich): p50 ${result.attachmentSendMs.p50} ms ${result.attachmentSendMs.p50 <= 400 ? 'PASS' : 'MISS'}; ` +
        `peak RSS with 20 concurrent 20 MB uploads: ${rssAfterUploads} MB ${rssAfterUploads <= 400 ? 'PASS' : 'MISS'}\n`,
    );
  } finally {
    await stopAll();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch(async (error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  await stopAll();
  process.exit(1);
});
