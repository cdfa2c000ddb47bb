#!/usr/bin/env node
/**
 * Signal delivery figures of the real service (SQLite; the sandbox messenger as BENCH_SANDBOX says) to a webhook receiver on
 * loopback in this process:
 *   1. latency: customers write at BENCH_RATE messages/s (default 300) for BENCH_SECONDS (default 10), after
 *      BENCH_WARMUP seconds (default 3) of the same load that are not measured; for each
 *      customer message, the time from the sandbox control call to the `message` signal at the receiver;
 *   2. throughput: with the receiver down, customers write BENCH_BACKLOG messages (default 6000, about 12,000
 *      signals); the receiver comes back and the time to receive every signal gives signals/s;
 *   3. outage: load at BENCH_RATE for 20 s, the receiver down for BENCH_OUTAGE seconds (default 60) while the
 *      load goes on, then back: how long after its return every signal has arrived.
 *
 *   npm run build && node tools/bench/signals.mjs
 *   BENCH_PHASES=latency,throughput   only those phases (default latency,throughput,outage)
 *   BENCH_SANDBOX=process             (default) the sandbox messenger runs as its own process, as the messenger is
 *                                     a system of its own: customers write through its control API and the API
 *                                     process does only the service's work (callback, journal, delivery)
 *   BENCH_SANDBOX=embedded            the default `npm start` set-up: the sandbox in the API process, customers
 *                                     written through the API's /sandbox control routes (their cost included)
 *   BENCH_CPU_PROF=<dir>              the API process writes a V8 CPU profile there (tools/bench/profile-summary.mjs)
 */
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChildServer } from './lib/child-server.mjs';
import { stopAll, track } from './lib/children.mjs';
import { cpuSeconds } from './lib/proc-cpu.mjs';
import { BENCH_RATE_LIMIT } from './lib/api-service.mjs';
import { sandboxFor, sandboxMode } from './lib/sandbox.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');
const RATE = Number(process.env.BENCH_RATE ?? 300);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** seconds of the same load before the latency is measured: every customer in a consultation, the code warm */
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 3);
/** measured latency stretches; the medians are reported */
const LATENCY_RUNS = Number(process.env.BENCH_RUNS ?? 3);
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 6000);
const OUTAGE_S = Number(process.env.BENCH_OUTAGE ?? 60);
const CHANNEL = 'sig-kakao';
const ADMIN = 'bench-admin-token-00000001';
const CUSTOMERS = 200;
const PHASES = new Set((process.env.BENCH_PHASES ?? 'latency,throughput,outage').split(','));
const CPU_PROF = process.env.BENCH_CPU_PROF;
const SANDBOX = sandboxMode();

/** How a customer writes: through the sandbox's own control API, or the API's /sandbox routes when embedded. */
let writeCustomer;

/** The receiver: counts signals, remembers when each customer message's signal arrived; can go down. */
function receiver() {
  const arrivals = new Map(); // `${userKey}:${seq}` -> ms
  const ids = new Set();
  let up = true;
  /** when each delivery was taken, in order */
  const acceptedAt = [];
  const server = createServer((req, res) => {
    if (!up) {
      req.destroy();
      return;
    }
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const signal = JSON.parse(body);
      ids.add(req.headers['webhook-id']);
      acceptedAt.push(performance.now());
      if (signal.kind === 'message') arrivals.set(`${signal.userKey}:${signal.seq}`, performance.now());
      res.writeHead(204).end();
    });
  });
  return {
    arrivals,
    ids,
    acceptedAt,
    listen: () => new Promise((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${server.address().port}/hook`))),
    setUp(value) {
      up = value;
      if (!value) server.closeAllConnections();
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

async function call(url, method, path, body) {
  const response = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** Customers write at `rate` per second for `seconds`; resolves with [{key, sentAt}] of every message. */
async function paced(rate, seconds, onSent = () => {}) {
  const sent = [];
  const total = Math.round(rate * seconds);
  const start = performance.now();
  const inFlight = new Set();
  for (let i = 0; i < total; i += 1) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    while (inFlight.size >= 200) await Promise.race(inFlight);
    const userKey = `u${i % CUSTOMERS}`;
    const sentAt = performance.now();
    const p = writeCustomer(userKey, `m${i}`).then(
      (reply) => {
        sent.push({ key: `${userKey}:${reply.seq}`, sentAt, journaledAt: performance.now() });
        onSent();
      },
      (error) => {
        if (refused.count === 0) process.stderr.write(`first refused customer message: ${error.message}\n`);
        refused.count += 1;
      },
    );
    inFlight.add(p);
    p.finally(() => inFlight.delete(p));
  }
  await Promise.all(inFlight);
  return sent;
}

/** One measured stretch of BENCH_SECONDS at RATE: latencies and what each process spent. */
async function latencyRun(apiPid, sandboxPid, hook) {
  const cpuBefore = cpuSeconds(apiPid);
  const sandboxCpuBefore = sandboxPid ? cpuSeconds(sandboxPid) : undefined;
  const ownCpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const sent = await paced(RATE, SECONDS);
  await until(() => sent.every((s) => hook.arrivals.has(s.key)), 30_000);
  const apiCpuMs = ((cpuSeconds(apiPid) ?? NaN) - (cpuBefore ?? NaN)) * 1000;
  const wallS = (performance.now() - wallBefore) / 1000;
  const own = process.cpuUsage(ownCpuBefore);
  const share = (cpuMs) => `${Math.round(cpuMs / 10 / wallS)}%`;
  const latencies = sent.filter((s) => hook.arrivals.has(s.key)).map((s) => hook.arrivals.get(s.key) - s.sentAt).sort((a, b) => a - b);
  return {
    messages: sent.length,
    received: latencies.length,
    p50Ms: pct(latencies, 50),
    p99Ms: pct(latencies, 99),
    // how long the customer's write took to be journaled (the sandbox's callback answered): the rest is delivery
    journaledP50Ms: pct(sent.map((s) => s.journaledAt - s.sentAt).sort((a, b) => a - b), 50),
    // the API's CPU time per customer message: what the service itself costs, whatever else the machine is doing
    apiCpuMsPerMessage: Math.round((apiCpuMs / sent.length) * 100) / 100,
    // CPU use of each process, % of one core
    cpuUse: {
      api: share(apiCpuMs),
      ...(sandboxPid ? { sandbox: share(((cpuSeconds(sandboxPid) ?? NaN) - (sandboxCpuBefore ?? NaN)) * 1000) } : {}),
      loadAndReceiver: share((own.user + own.system) / 1000),
    },
  };
}

async function until(predicate, timeoutMs) {
  const deadline = performance.now() + timeoutMs;
  while (!predicate()) {
    if (performance.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

async function allSignalIds(url) {
  const ids = [];
  let after = '0';
  for (;;) {
    const page = await fetch(`${url}/api/agent/signals?brand=${CHANNEL}&after=${after}&max=1000`, { headers: { authorization: `Bearer ${ADMIN}` } }).then((r) => r.json());
    for (const s of page.signals) ids.push(`sig_${CHANNEL}_${s.id.replace('.', '_')}`);
    if (page.signals.length < 1000) return ids;
    after = page.next;
  }
}

/** Customer messages the service could not take (the sandbox's callback timed out): reported, not hidden. */
const refused = { count: 0 };

const pct = (sorted, p) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 10) / 10;

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), 'brandwire-signals-'));
  const hook = receiver();
  try {
    const seed = join(tmp, 'seed.json');
    writeFileSync(seed, JSON.stringify({ brands: [{ id: 'sig', name: 'Sig', channels: [{ key: CHANNEL, name: 'Sig', type: 'kakao', plan: { consultations: 1e9 } }] }], keys: [{ token: ADMIN, name: 'admin', scope: 'Admin', brands: ['sig'] }] }));
    const sandbox = await sandboxFor(SANDBOX, { repoRoot, tmp });
    const sandboxPid = sandbox.pid;
    if (sandbox.writeCustomer) writeCustomer = (userKey, text) => sandbox.writeCustomer(CHANNEL, userKey, text);
    const api = track(await startChildServer({ name: 'the API service', args: ['apps/api/dist/main.js'], cwd: repoRoot, env: { PORT: '0', BRANDWIRE_DATA_DIR: join(tmp, 'data'), BRANDWIRE_SEED: seed, RATE_LIMIT_PER_KEY: BENCH_RATE_LIMIT, DATABASE_URL: '', UPSTREAM_URL: '', ...sandbox.apiEnv }, logFile: join(tmp, 'api.log'), nodeFlags: CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [] }));
    if (SANDBOX === 'embedded') writeCustomer = (userKey, text) => call(api.url, 'POST', `/sandbox/customers/${userKey}/messages`, { brandKey: CHANNEL, text });
    const hookUrl = await hook.listen();
    await call(api.url, 'PUT', '/api/agent/settings/webhook', { brandKey: CHANNEL, url: hookUrl });

    const result = { node: process.version, sandbox: SANDBOX, customerMessagesRefused: 0 };

    if (PHASES.has('latency')) {
      const warm = await paced(RATE, WARMUP_S);
      await until(() => warm.every((s) => hook.arrivals.has(s.key)), 30_000);
      const runs = [];
      for (let run = 0; run < LATENCY_RUNS; run += 1) runs.push(await latencyRun(api.pid, sandboxPid, hook));
      const median = (field) => runs.map((r) => r[field]).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
      result.latencyAtRate = {
        rate: RATE,
        warmupSeconds: WARMUP_S,
        runs: runs.length,
        p50Ms: median('p50Ms'),
        p99Ms: median('p99Ms'),
        journaledP50Ms: median('journaledP50Ms'),
        apiCpuMsPerMessage: median('apiCpuMsPerMessage'),
        eachRun: runs,
      };
    }

    if (PHASES.has('throughput')) {
      // a backlog built while the receiver is down, then drained
      hook.setUp(false);
      await paced(1000, BACKLOG / 1000);
      const wanted = await allSignalIds(api.url);
      const missing = () => wanted.filter((id) => !hook.ids.has(id)).length;
      const backlog = missing();
      hook.setUp(true);
      const drainStart = performance.now();
      const drained = await until(() => missing() === 0, 180_000);
      const drainS = (performance.now() - drainStart) / 1000;
      // the delivery rate proper: from the first delivery after the return to the last (the wait until the service
      // probes the returned receiver, at most 2 s, is the outage phase's concern)
      const taken = hook.acceptedAt.filter((t) => t >= drainStart);
      const deliveringS = taken.length > 1 ? ((taken[taken.length - 1] ?? 0) - (taken[0] ?? 0)) / 1000 : NaN;
      result.throughput = {
        signals: backlog,
        drained,
        secondsSinceReturn: Math.round(drainS * 10) / 10,
        secondsDelivering: Math.round(deliveringS * 10) / 10,
        signalsPerSecond: Math.round(taken.length / deliveringS),
        signalsPerSecondSinceReturn: Math.round(backlog / drainS),
      };
    }

    if (PHASES.has('outage')) {
      // OUTAGE_S seconds of receiver outage under load at RATE messages/s
      const load = paced(RATE, 10 + OUTAGE_S + 10);
      await new Promise((r) => setTimeout(r, 10_000));
      hook.setUp(false);
      await new Promise((r) => setTimeout(r, OUTAGE_S * 1000));
      hook.setUp(true);
      const outageEnded = performance.now();
      await load;
      const wantedAfter = await allSignalIds(api.url);
      const recovered = await until(() => wantedAfter.every((id) => hook.ids.has(id)), 300_000);
      const recoveryS = (performance.now() - outageEnded) / 1000;
      result.outage = { outageSeconds: OUTAGE_S, rate: RATE, recovered, secondsAfterReturnUntilAllDelivered: Math.round(recoveryS * 10) / 10 };
    }

    result.customerMessagesRefused = refused.count;
    result.targets = { p50Ms: 20, p99Ms: 100, signalsPerSecond: 1500, drainSeconds: 60 };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await stopAll();
    await hook.close().catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch(async (error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  await stopAll();
  process.exit(1);
});
