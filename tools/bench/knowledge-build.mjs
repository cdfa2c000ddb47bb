#!/usr/bin/env node
/**
 * Knowledge-graph benchmark, end to end: a real API process (SQLite) holds the consultations, and the graph is
 * built from it the way `brandwire knowledge build` does (the paged export through @brandwire/client, streamed
 * into KnowledgeGraph.build); then the two-hop query "inquiries similar to X and their responses" runs 30 times.
 *
 *   node tools/bench/knowledge-build.mjs            100,000 consultations, 1,000,000 messages, 3 channels
 *   KB_CONVERSATIONS=10000 node tools/bench/...     smaller run (10 messages per consultation)
 *   KB_BUILDER=cli | inprocess                      time the real `brandwire knowledge build` process, or
 *                                                   tools/bench/lib/knowledge-builder.mjs (the same calls); default:
 *                                                   the CLI once apps/cli/src/commands/knowledge/build.ts is committed
 *   KB_SOURCE=memory                                no API: the consultations generated in the building process
 *   KB_KEEP=1                                       keep the temp folder (printed)
 *   KB_BATCH=<messages> KB_POOL_MB=<MiB>            build batch size and Kuzu buffer pool (library defaults otherwise)
 *   KB_QUIET_WAIT=<s>                               wait up to this long for a quiet machine before building (default 60)
 *
 * Targets: >= 20,000 messages/s end to end, peak RSS of the building process <= 1 GiB, two-hop p50 <= 50 ms.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApi } from './lib/api-service.mjs';
import { stopAll, stopChildrenOnSignals } from './lib/children.mjs';
import { ATTACHMENT_HOST, LINES_PER_CONSULTATION, QUERIES } from './lib/consultations.mjs';
import { peakRssMb, sampleTreePeakRss } from './lib/peak-rss.mjs';
import { cpuMeter, machineMeter } from './lib/proc-cpu.mjs';
import { prefillConsultations } from './lib/prefill-consultations.mjs';
import { waitForQuietMachine } from './lib/quiet.mjs';
import { FTS_ONLY, TWO_HOP, TWO_HOP_PLAIN } from './lib/two-hop.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CONVERSATIONS = Number(process.env.KB_CONVERSATIONS ?? 100_000);
const MESSAGES = CONVERSATIONS * LINES_PER_CONSULTATION;
const SOURCE = process.env.KB_SOURCE === 'memory' ? 'memory' : 'api';
const RUNS = 30;
const CHANNELS = ['kb-kakao', 'kb-naver', 'kb-web'];
const READER_TOKEN = 'knowledge-bench-reader-000000001';
const SEED = {
  brands: [{ id: 'kb', name: 'Knowledge Bench', channels: CHANNELS.map((key) => ({ key, name: key, type: 'kakao', plan: { consultations: 1_000_000 } })) }],
  keys: [{ token: READER_TOKEN, name: 'knowledge-bench', scope: 'BrandRead', brands: ['kb'] }],
};
const LAUNCHER = join(repoRoot, 'apps/cli/bin/brandwire');

const say = (line) => console.log(line);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

function cliHasLanded() {
  const log = execFileSync('git', ['log', '--oneline', '-1', '--', 'apps/cli/src/commands/knowledge/build.ts'], { cwd: repoRoot, encoding: 'utf8' });
  return log.trim() !== '';
}

function builder() {
  const wanted = process.env.KB_BUILDER;
  if (wanted === 'cli' || wanted === 'inprocess') return wanted;
  if (wanted) throw new Error(`KB_BUILDER must be cli or inprocess, not ${wanted}`);
  return SOURCE === 'api' && cliHasLanded() ? 'cli' : 'inprocess';
}

function compile(kind) {
  const tsc = join(repoRoot, 'node_modules/.bin/tsc');
  if (kind === 'cli') {
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
    return;
  }
  execFileSync(tsc, ['-b', 'libs/knowledge/tsconfig.lib.json', 'libs/client/tsconfig.lib.json', ...(SOURCE === 'api' ? ['apps/api/tsconfig.lib.json'] : [])], { cwd: repoRoot, stdio: 'inherit' });
}

/** Runs a process to its end, sampling the peak RSS of it and its children; resolves with its output and figures. */
function runMeasured(command, args, env) {
  const started = performance.now();
  const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const sampler = sampleTreePeakRss(child.pid);
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => process.stdout.write(chunk));
  return new Promise((done, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const peak = sampler.stop();
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${stdout}`));
      else done({ stdout, seconds, peak });
    });
  });
}

/** The environment of the real tool: its own config folder, the bench key, and no per-process CA bundle cost. */
function cliEnv(tmp, url) {
  const env = { BRANDWIRE_CONFIG_DIR: join(tmp, 'cli-config'), BRANDWIRE_ENDPOINT: url, BRANDWIRE_TOKEN: READER_TOKEN, NODE_EXTRA_CA_CERTS: '' };
  return env;
}

/** One build: returns messages, seconds and the peak RSS of the building process. */
async function build(kind, { tmp, graphPath, url }) {
  if (kind === 'cli') {
    const env = cliEnv(tmp, url);
    execFileSync(LAUNCHER, ['knowledge', 'install', '--json'], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
    const run = await runMeasured(LAUNCHER, ['knowledge', 'build', '--json'], env);
    const result = JSON.parse(run.stdout.trim().split('\n').at(-1));
    return { report: result, seconds: run.seconds, buildSeconds: result.ms / 1000, peakMb: run.peak.mb, peakOf: run.peak.command };
  }
  const env = {
    KB_GRAPH: graphPath,
    ...(SOURCE === 'api' ? { KB_ENDPOINT: url, KB_TOKEN: READER_TOKEN } : { KB_SOURCE: 'memory', KB_CONVERSATIONS: String(CONVERSATIONS), KB_CHANNELS: CHANNELS.join(',') }),
  };
  const run = await runMeasured(process.execPath, [join(repoRoot, 'tools/bench/lib/knowledge-builder.mjs')], env);
  const result = JSON.parse(run.stdout.trim().split('\n').at(-1));
  return { report: result.report, seconds: run.seconds, buildSeconds: result.buildSeconds, peakMb: result.peakRssMb, peakOf: 'knowledge-builder.mjs' };
}

const QUERY_FORMS = { 'two-hop query': TWO_HOP, 'the full-text call alone': FTS_ONLY, 'the two-hop query as a plain MATCH': TWO_HOP_PLAIN };
/** Other processes' CPU (cores) above which a round of queries is measured again. */
const OTHERS_LIMIT = 0.3;
const MAX_ROUNDS = 40;

/**
 * p50/min/max per query form over RUNS runs each. The runs go in rounds of one question in every form (the forms
 * taking turns, so that noise hits all alike, each form first in its turn); a round during which other processes used more than OTHERS_LIMIT
 * cores is dropped and measured again after the machine is quiet. The rounds dropped are reported.
 */
async function queryTimes(graphPath) {
  const { KnowledgeGraph } = createRequire(import.meta.url)(join(repoRoot, 'libs/knowledge/dist/index.js'));
  const graph = await KnowledgeGraph.open(graphPath, { readOnly: true, holder: 'the knowledge benchmark' });
  try {
    const times = Object.fromEntries(Object.keys(QUERY_FORMS).map((name) => [name, { ms: [], rows: 0 }]));
    for (const cypher of Object.values(QUERY_FORMS)) await graph.query(cypher, { q: QUERIES[0] });
    let kept = 0;
    let dropped = 0;
    while (kept < RUNS && kept + dropped < MAX_ROUNDS + RUNS) {
      const question = QUERIES[kept % QUERIES.length];
      const machine = machineMeter(cpus().length);
      const own = cpuMeter(process.pid);
      const round = [];
      const forms = Object.entries(QUERY_FORMS);
      // each form goes first in turn: the plain MATCH reads every response, which slows whatever runs right after it
      for (const [name, cypher] of forms.map((_, i) => forms[(i + kept + dropped) % forms.length])) {
        const t = performance.now();
        const result = await graph.query(cypher, { q: question });
        round.push([name, performance.now() - t, result.rows.length]);
      }
      const others = (machine() ?? 0) - (own() ?? 0) / 100;
      if (others > OTHERS_LIMIT) {
        dropped += 1;
        await waitForQuietMachine({ maxWaitS: 30, quietS: 2 });
        continue;
      }
      kept += 1;
      for (const [name, ms, rows] of round) {
        times[name].ms.push(ms);
        times[name].rows += rows;
      }
    }
    const forms = Object.entries(times).map(([name, { ms, rows }]) => {
      ms.sort((a, b) => a - b);
      return { name, runs: ms.length, p50: ms[Math.floor(ms.length / 2)], min: ms[0], max: ms[ms.length - 1], rows: rows / ms.length };
    });
    return { forms, dropped };
  } finally {
    await graph.close();
  }
}

async function main() {
  stopChildrenOnSignals();
  // output piped into a command that quits early (| head) must not leave the API running
  process.stdout.on('error', () => void stopAll().finally(() => process.exit(1)));
  // the service tells the tool its attachment host (GET /api/agent/me), as it would a user's
  process.env.ATTACHMENT_HOST = ATTACHMENT_HOST;
  const kind = builder();
  compile(kind);
  const tmp = mkdtempSync(join(tmpdir(), 'brandwire-knowledge-bench-'));
  const graphPath = kind === 'cli' ? join(tmp, 'cli-config', 'knowledge', 'graph.kuzu') : join(tmp, 'graph.kuzu');
  say(`Node ${process.version}; ${CONVERSATIONS.toLocaleString('en')} consultations, ${MESSAGES.toLocaleString('en')} messages on ${CHANNELS.length} channels; source ${SOURCE}; builder ${kind === 'cli' ? 'brandwire knowledge build' : 'knowledge-builder.mjs'}; ${tmp}`);
  let api;
  try {
    if (SOURCE === 'api') {
      const dataDir = join(tmp, 'api-data');
      mkdirSync(dataDir, { recursive: true });
      const seedFile = join(tmp, 'seed.json');
      writeFileSync(seedFile, JSON.stringify(SEED));
      const schema = await startApi({ repoRoot, dataDir, seedFile, logFile: join(tmp, 'api.log') });
      await schema.stop();
      const fill = prefillConsultations({ repoRoot, dataDir, channelKeys: CHANNELS, consultations: CONVERSATIONS });
      say(`prefill: ${fill.consultations.toLocaleString('en')} consultations, ${fill.items.toLocaleString('en')} journal items in ${fill.seconds} s`);
      api = await startApi({ repoRoot, dataDir, seedFile, logFile: join(tmp, 'api.log') });
    }
    const quiet = await waitForQuietMachine({ maxWaitS: Number(process.env.KB_QUIET_WAIT ?? 60), say });
    say(`load average before the build: ${load()}${quiet.quiet === false ? ' (the machine stayed busy)' : ''}`);
    const apiCpu = api ? cpuMeter(api.pid) : undefined;
    const first = await build(kind, { tmp, graphPath, url: api?.url });
    const apiShare = apiCpu?.();
    const rate = Math.round(first.report.messages / first.seconds);
    say(
      `build: ${first.report.messages.toLocaleString('en')} messages in ${first.seconds.toFixed(1)} s (process) = ${rate.toLocaleString('en')} messages/s; ` +
        `build() ${first.buildSeconds.toFixed(1)} s; peak RSS of the builder ${first.peakMb} MB` +
        (api ? `; API peak RSS ${peakRssMb(api.pid)} MB, API CPU ${apiShare}% of one core` : ''),
    );
    say(`  nodes ${JSON.stringify(first.report.addedNodes)}\n  relations ${JSON.stringify(first.report.addedRelations)}`);
    say(`load average after the build: ${load()}`);
    await waitForQuietMachine({ maxWaitS: Number(process.env.KB_QUIET_WAIT ?? 60), say });
    say(`load average before the queries: ${load()}`);
    const queries = await queryTimes(graphPath);
    for (const q of queries.forms) {
      say(`${q.name} x${q.runs}: p50 ${q.p50.toFixed(1)} ms, min ${q.min.toFixed(1)} ms, max ${q.max.toFixed(1)} ms, ${q.rows.toFixed(1)} rows on average`);
    }
    say(`  (${queries.dropped} rounds measured again: other processes used more than ${OTHERS_LIMIT} cores meanwhile)`);
    say(`load average after the queries: ${load()}`);

    const again = await build(kind, { tmp, graphPath, url: api?.url });
    say(`re-run of the same input: added ${JSON.stringify(again.report.addedNodes)} in ${again.seconds.toFixed(1)} s (process), peak RSS ${again.peakMb} MB`);
    if (api) say(`API peak RSS over the whole run ${peakRssMb(api.pid)} MB`);
    say(`load average at the end: ${load()}`);
  } finally {
    await stopAll();
    if (process.env.KB_KEEP) say(`kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
