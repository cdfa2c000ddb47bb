#!/usr/bin/env node
/**
 * Brandwire load benchmarks (`npm run bench` builds first, then runs this).
 *
 *   1. ceiling    a bare NestJS 11 + Express app, GET /hello -> {"ok":true}
 *   2. send       the real service: POST /api/agent/send round-robin over customers in a consultation
 *   3. retrieval  the real service: GET /api/agent/rooms/<user>/messages?max=100 on a channel of 1M items
 *
 * Every server is its own child process (same node binary as this script); autocannon runs in this process.
 * The scenarios run in rounds (ceiling, send, retrieval; BENCH_RUNS times) and the medians are reported,
 * with the ratios to the ceiling of the same invocation and PASS/MISS against the targets of the issue.
 * Prints a table and writes tools/bench/results/<node-version>.json. Settings (environment, all optional;
 * see lib/options.mjs): BENCH_DURATION (10 s), BENCH_WARMUP (3 s), BENCH_RUNS (3), BENCH_CONNECTIONS (50),
 * BENCH_ONLY (e.g. "ceiling,retrieval"), BENCH_ITEMS (1000000), BENCH_USERS, BENCH_CUSTOMERS (200),
 * BENCH_LOG_LEVEL (the service's LOG_LEVEL; unset = its default), BENCH_QUIET_WAIT (120 s: wait for other
 * processes to leave the CPUs alone before each measurement), BENCH_CPU_PROF (folder for --cpu-prof
 * profiles of the servers; see profile-summary.mjs), BENCH_KEEP=1 (keep the temporary folder),
 * BENCH_SANDBOX (where the send scenario's sandbox messenger runs, as in signals.mjs: `process`, the default, its
 * own process with the API pointed at it by UPSTREAM_URL and customers created through its control API, as the
 * messenger is a system of its own in production; or `embedded`, the `npm start` set-up, the sandbox inside the
 * API process and billed to it). The table says which mode was measured.
 * The retrieval load reads one page again and again, which the service answers from its room page cache after the
 * first read; ROOM_CACHE_MB=0 (passed on to the service) measures every read going to the database.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSeed } from './lib/api-service.mjs';
import { stopAll, stopChildrenOnSignals } from './lib/children.mjs';
import { readOptions } from './lib/options.mjs';
import { formatTable, machine, summarise, writeResults } from './lib/report.mjs';
import { ceiling, prepareRetrievalDatabase, retrieval, textSend } from './lib/scenarios.mjs';
import { sqliteDriverVersion } from './lib/sqlite-driver.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(benchDir, '../..');
const SCENARIO_RUNNERS = { ceiling, send: textSend, retrieval };

/** Which code was measured: the commit and how many files differed from it (others may be editing). */
function codeVersion() {
  if (process.env.BENCH_CODE) return { commit: process.env.BENCH_CODE };
  const git = (...args) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    return { commit: git('rev-parse', '--short', 'HEAD'), subject: git('log', '-1', '--format=%s').slice(0, 120), changedFiles: git('status', '--porcelain').split('\n').filter(Boolean).length };
  } catch {
    return { commit: 'unknown (not a git work tree)' };
  }
}

function say(text) {
  process.stderr.write(`[bench] ${text}\n`);
}

function brief(r) {
  const extra = (r.okFalse !== undefined ? `, ok:false ${r.okFalse}` : '') + (r.sandboxCpuPct !== undefined ? `, sandbox process CPU ${r.sandboxCpuPct}%` : '');
  return `${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}${extra}, server CPU ${r.serverCpuPct ?? '?'}% (event loop ${r.serverLoopPct ?? '?'}% busy), load generator CPU ${r.clientCpuPct}%, other processes CPU ${r.otherCpuPct ?? '?'}%${r.quietBefore?.waitedS ? ` (waited ${r.quietBefore.waitedS} s for quiet)` : ''}`;
}

async function main() {
  const options = readOptions();
  if (!existsSync(join(repoRoot, 'apps/api/dist/main.js'))) throw new Error('apps/api/dist/main.js is missing: run `npm run build` (or `npm run bench`)');
  stopChildrenOnSignals();
  const tmp = mkdtempSync(join(tmpdir(), 'brandwire-bench-'));
  const ctx = { repoRoot, tmp, options, say, seedFile: writeSeed(tmp), retrievalDb: undefined };
  const info = { ...machine(), sqlite: sqliteDriverVersion(repoRoot), code: codeVersion() };
  say(`Node ${info.node}, ${info.cpus} CPUs, temp folder ${tmp}`);
  const runs = Object.fromEntries(options.scenarios.map((s) => [s, []]));
  try {
    if (options.scenarios.includes('retrieval')) {
      say(`filling the retrieval database: ${options.items.toLocaleString('en')} journal items over ${options.users.toLocaleString('en')} customers ...`);
      ctx.retrievalDb = await prepareRetrievalDatabase(ctx);
      say(`  done in ${ctx.retrievalDb.fill.seconds} s (room ${ctx.retrievalDb.fill.hotUser}: ${ctx.retrievalDb.fill.hotItems} items)`);
    }
    // rounds, so that slow drifts of the machine touch every scenario alike
    for (let round = 1; round <= options.runs; round += 1) {
      for (const scenario of options.scenarios) {
        say(`run ${round}/${options.runs}: ${scenario} ...`);
        const result = await SCENARIO_RUNNERS[scenario](ctx, round);
        runs[scenario].push(result);
        say(`  ${brief(result)}`);
      }
    }
  } finally {
    await stopAll();
    if (!options.keep) rmSync(tmp, { recursive: true, force: true });
    else say(`kept ${tmp}`);
  }

  const summary = summarise(runs);
  const fill = ctx.retrievalDb?.fill;
  process.stdout.write(`\n${formatTable({ machine: info, options, summary, fill })}\n`);
  const file = writeResults(join(benchDir, 'results'), {
    date: new Date().toISOString(),
    machine: info,
    options,
    retrievalDatabase: fill,
    medians: summary.medians,
    ratiosToCeiling: summary.ratios,
    ratiosToCeilingPerRun: summary.roundRatios,
    targets: summary.verdicts,
    runs,
  });
  process.stdout.write(`\nresults written to ${file}\n`);
}

main().catch(async (error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  await stopAll();
  process.exit(1);
});
