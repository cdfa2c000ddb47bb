#!/usr/bin/env node
/**
 * Where the time of a request goes, layer by layer: the same load on routes that add one layer at a time,
 * reported with the server's CPU time per request (which other load on a shared machine disturbs much
 * less than req/s). Runs the ceiling app and the service (pre-filled journal, as in the benchmark), with
 * the default LOG_LEVEL and with LOG_LEVEL=silent.
 *
 *   node tools/bench/probes/layers.mjs     (BENCH_DURATION default 5 here, BENCH_ITEMS, BENCH_CONNECTIONS, ...)
 *
 *   ceiling GET /hello                     bare Nest + Express
 *   GET /healthz                           + the service's app: pino-http, body parser, global guard (public route), filter, pipe
 *   GET .../messages?max=1                 + bearer auth (cached key), query DTO validation, brand access, one-row Kysely query
 *   GET .../messages?max=100               + 99 more rows read, mapped and serialised (~20 kB answer)
 *   POST /api/agent/send                   + JSON body + DTO validation, HTTP call to the in-process sandbox, getRoom, journal append (fsync)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHANNEL, TOKEN, createCustomers, startApi, writeSeed } from '../lib/api-service.mjs';
import { startChildServer } from '../lib/child-server.mjs';
import { stopAll, stopChildrenOnSignals, track } from '../lib/children.mjs';
import { measureLoad } from '../lib/load.mjs';
import { readOptions } from '../lib/options.mjs';
import { HOT_USER } from '../lib/prefill-journal.mjs';
import { prepareRetrievalDatabase } from '../lib/scenarios.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
if (!process.env.BENCH_DURATION) process.env.BENCH_DURATION = '5';
if (!process.env.BENCH_WARMUP) process.env.BENCH_WARMUP = '2';
const options = readOptions();
const say = (s) => process.stderr.write(`[layers] ${s}\n`);
const tmp = mkdtempSync(join(tmpdir(), 'brandwire-layers-'));
const ctx = { repoRoot, tmp, options, say, seedFile: writeSeed(tmp) };
const AUTH = { authorization: `Bearer ${TOKEN}` };
const rows = [];

async function load(label, url, request, pid) {
  const r = await measureLoad({ url, requests: [request], connections: options.connections, duration: options.duration, warmup: options.warmup, serverPid: pid, quietWait: options.quietWait, say });
  rows.push({ label, ...r });
  say(`${label}: ${r.rps} req/s, p99 ${r.p99} ms, server CPU ${r.serverCpuPct}% = ${r.serverCpuMsPerReq} ms/req, other ${r.otherCpuPct}%`);
}

stopChildrenOnSignals();
try {
  const ceiling = track(await startChildServer({ name: 'ceiling', args: [fileURLToPath(new URL('../ceiling-app.cjs', import.meta.url))], cwd: repoRoot, logFile: join(tmp, 'ceiling.log') }));
  await load('ceiling GET /hello (bare Nest)', ceiling.url, { method: 'GET', path: '/hello' }, ceiling.pid);
  await ceiling.stop();

  say(`filling ${options.items} items ...`);
  const db = await prepareRetrievalDatabase(ctx);
  for (const logLevel of [options.logLevel, 'silent']) {
    const tag = logLevel ? `LOG_LEVEL=${logLevel}` : 'default LOG_LEVEL';
    const api = await startApi({ repoRoot, dataDir: db.dataDir, seedFile: ctx.seedFile, logFile: join(tmp, `api-${logLevel}.log`), logLevel });
    await load(`GET /healthz (${tag})`, api.url, { method: 'GET', path: '/healthz' }, api.pid);
    for (const max of [1, 100]) {
      await load(`GET messages max=${max} (${tag})`, api.url, { method: 'GET', path: `/api/agent/rooms/${HOT_USER}/messages?brand=${CHANNEL}&max=${max}`, headers: AUTH }, api.pid);
    }
    const customers = Array.from({ length: options.customers }, (_, i) => `layer-${logLevel}-${i}`);
    await createCustomers(api.url, customers);
    let next = 0;
    await load(
      `POST /api/agent/send (${tag})`,
      api.url,
      {
        method: 'POST',
        path: '/api/agent/send',
        headers: { ...AUTH, 'content-type': 'application/json' },
        setupRequest(req) {
          next += 1;
          req.body = JSON.stringify({ brandKey: CHANNEL, userKey: customers[next % customers.length], text: `layer probe ${next}` });
          return req;
        },
      },
      api.pid,
    );
    await api.stop();
  }
  console.log(`\nlayers - Node ${process.version}, ${options.connections} connections, ${options.duration} s each after ${options.warmup} s warm-up`);
  console.log(`${'route'.padEnd(46)} ${'req/s'.padStart(7)} ${'p50'.padStart(5)} ${'p99'.padStart(6)} ${'srv CPU'.padStart(8)} ${'CPU ms/req'.padStart(11)} ${'other'.padStart(6)}`);
  for (const r of rows) {
    console.log(`${r.label.padEnd(46)} ${String(r.rps).padStart(7)} ${String(r.p50).padStart(5)} ${String(r.p99).padStart(6)} ${`${r.serverCpuPct}%`.padStart(8)} ${r.serverCpuMsPerReq.toFixed(3).padStart(11)} ${`${r.otherCpuPct}%`.padStart(6)}`);
  }
} finally {
  await stopAll();
  rmSync(tmp, { recursive: true, force: true });
}
