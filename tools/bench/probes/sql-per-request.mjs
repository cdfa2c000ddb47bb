#!/usr/bin/env node
/**
 * How many SQL statements one request makes (each one prepared anew by Kysely's SQLite driver), and the
 * server CPU time of one request without concurrency: N sequential text sends, then N sequential messages
 * reads (max=100), against the real service with probes/count-sql.cjs preloaded.
 *
 *   node tools/bench/probes/sql-per-request.mjs [--n 300]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { CHANNEL, call, createCustomers, startApi, writeSeed } from '../lib/api-service.mjs';
import { stopAll } from '../lib/children.mjs';
import { cpuSeconds } from '../lib/proc-cpu.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const args = process.argv.slice(2);
const N = Number(args.includes('--n') ? args[args.indexOf('--n') + 1] : 300);
const tmp = mkdtempSync(join(tmpdir(), 'brandwire-sql-'));
const countFile = join(tmp, 'counts.json');
process.env.COUNT_SQL_FILE = countFile;

async function counted(pid) {
  process.kill(pid, 'SIGUSR2');
  await sleep(300);
  return JSON.parse(readFileSync(countFile, 'utf8'));
}

try {
  const api = await startApi({ repoRoot, dataDir: join(tmp, 'data'), seedFile: writeSeed(tmp), logFile: join(tmp, 'api.log'), nodeFlags: ['--require', join(here, 'count-sql.cjs')] });
  await createCustomers(api.url, ['a', 'b']);
  const cases = [
    ['POST /api/agent/send', (i) => call(api.url, 'POST', '/api/agent/send', { brandKey: CHANNEL, userKey: i % 2 ? 'a' : 'b', text: `sql probe ${i}` })],
    ['GET .../messages?max=100', () => call(api.url, 'GET', `/api/agent/rooms/a/messages?brand=${CHANNEL}&max=100`)],
    ['GET /healthz', () => call(api.url, 'GET', '/healthz')],
  ];
  for (const [label, fn] of cases) {
    for (let i = 0; i < 50; i += 1) await fn(i);
    await counted(api.pid);
    const cpu0 = cpuSeconds(api.pid);
    const t0 = performance.now();
    for (let i = 0; i < N; i += 1) await fn(i);
    const wall = (performance.now() - t0) / N;
    const cpu = ((cpuSeconds(api.pid) - cpu0) * 1000) / N;
    const counts = await counted(api.pid);
    const total = counts.reduce((a, [, n]) => a + n, 0);
    console.log(`\n${label}: ${(total / N).toFixed(1)} statements prepared per request; sequential: ${wall.toFixed(2)} ms wall, ${cpu.toFixed(2)} ms server CPU per request`);
    for (const [sql, n] of counts) console.log(`  ${(n / N).toFixed(2).padStart(5)} x  ${sql.replace(/\s+/g, ' ').slice(0, 150)}`);
  }
  await api.stop();
} finally {
  await stopAll();
  rmSync(tmp, { recursive: true, force: true });
}
