#!/usr/bin/env node
/**
 * Times the sandbox messenger alone: its partner call POST /v1/write (what every text send of the service
 * costs inside the same process), loaded with autocannon like the benchmark, round-robin over customers
 * with a consultation in progress. The sandbox runs standalone (libs/upstream/dist/sandbox-main.js); a tiny
 * receiver in this process answers its callbacks.
 *
 *   node tools/bench/probes/sandbox-alone.mjs      (BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS apply)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopAll, stopChildrenOnSignals } from '../lib/children.mjs';
import { measureLoad } from '../lib/load.mjs';
import { readOptions } from '../lib/options.mjs';
import { PARTNER_KEY, senderKeyOf, startSandboxProcess } from '../lib/sandbox.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SENDER_KEY = senderKeyOf('bench-kakao');
const options = readOptions();
const tmp = mkdtempSync(join(tmpdir(), 'brandwire-sandbox-probe-'));

async function control(url, method, path, body) {
  const response = await fetch(`${url}${path}`, { method, headers: { 'x-partner-key': PARTNER_KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text}`);
  return JSON.parse(text);
}

stopChildrenOnSignals();
let seq = 0;
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ok: true, seq: ++seq }));
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
try {
  const { server: sandbox } = await startSandboxProcess({ repoRoot, logFile: join(tmp, 'sandbox.log') });
  await control(sandbox.url, 'PUT', '/_sandbox/partner', { callbackUrl: `http://127.0.0.1:${receiver.address().port}/upstream` });
  await control(sandbox.url, 'PUT', `/_sandbox/channels/${SENDER_KEY}`, { type: 'kakao' });
  const customers = Array.from({ length: options.customers }, (_, i) => `buyer-${i}`);
  for (const userKey of customers) await control(sandbox.url, 'POST', `/_sandbox/customers/${userKey}/messages`, { senderKey: SENDER_KEY, text: 'hello' });

  let next = 0;
  const codes = {};
  const result = await measureLoad({
    url: sandbox.url,
    connections: options.connections,
    duration: options.duration,
    warmup: options.warmup,
    serverPid: sandbox.pid,
    requests: [
      {
        method: 'POST',
        path: '/v1/write',
        headers: { 'x-partner-key': PARTNER_KEY, 'content-type': 'application/json' },
        setupRequest(req) {
          next += 1;
          const serial = `bw-${String(Date.now()).padStart(13, '0')}${String(next % 1000).padStart(3, '0')}-${(next % 2176782336).toString(36).padStart(6, '0')}`;
          req.body = JSON.stringify({ user_key: customers[next % customers.length], sender_key: SENDER_KEY, serial_number: serial, message_type: 'TX', message: `Thanks for waiting (#${next})` });
          return req;
        },
        onResponse(status, body) {
          let code = 'unreadable';
          try {
            code = String(JSON.parse(body).code);
          } catch {
            // counted as unreadable
          }
          codes[code] = (codes[code] ?? 0) + 1;
        },
      },
    ],
    beforeMeasure: () => Object.keys(codes).forEach((k) => delete codes[k]),
  });
  console.log(`sandbox messenger alone, POST /v1/write - Node ${process.version}, ${options.connections} connections, ${options.duration} s`);
  console.log(`  ${result.rps} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, non-2xx ${result.non2xx}, server CPU ${result.serverCpuPct}%, other processes ${result.otherCpuPct}%`);
  console.log(`  answer codes: ${JSON.stringify(codes)}`);
  await sandbox.stop();
} finally {
  receiver.close();
  await stopAll();
  rmSync(tmp, { recursive: true, force: true });
}
