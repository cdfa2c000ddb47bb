/** Medians over the runs, ratios to the ceiling of the same invocation, targets, the table and the JSON file. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

export const LABELS = { ceiling: 'ceiling (bare Nest GET /hello)', send: 'text send (POST /api/agent/send)', retrieval: 'retrieval (GET .../messages, pre-filled journal)' };

/** The targets of the issue. */
export const TARGETS = [
  { scenario: 'send', what: 'req/s >= 0.35 x ceiling', check: (m, ratio) => ratio >= 0.35, value: (m, ratio) => `${ratio.toFixed(2)} x` },
  { scenario: 'send', what: 'p99 <= 60 ms', check: (m) => m.p99 <= 60, value: (m) => `${m.p99} ms` },
  { scenario: 'send', what: 'no ok:false, no non-2xx, no errors', check: (m) => m.okFalseTotal === 0 && m.non2xxTotal === 0 && m.errorsTotal === 0, value: (m) => `${m.okFalseTotal} ok:false, ${m.non2xxTotal} non-2xx, ${m.errorsTotal} errors` },
  { scenario: 'retrieval', what: 'req/s >= 0.7 x ceiling', check: (m, ratio) => ratio >= 0.7, value: (m, ratio) => `${ratio.toFixed(2)} x` },
  { scenario: 'retrieval', what: 'p99 <= 30 ms', check: (m) => m.p99 <= 30, value: (m) => `${m.p99} ms` },
];

export function median(values) {
  const sorted = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function sum(values) {
  return values.reduce((a, v) => a + (v ?? 0), 0);
}

/** runs: { ceiling: [result...], send: [...], retrieval: [...] } */
export function summarise(runs) {
  const medians = {};
  for (const [scenario, results] of Object.entries(runs)) {
    if (results.length === 0) continue;
    medians[scenario] = {
      runs: results.length,
      rps: median(results.map((r) => r.rps)),
      p50: median(results.map((r) => r.p50)),
      p99: median(results.map((r) => r.p99)),
      serverCpuPct: median(results.map((r) => r.serverCpuPct)),
      serverLoopPct: median(results.map((r) => r.serverLoopPct)),
      clientCpuPct: median(results.map((r) => r.clientCpuPct)),
      otherCpuPct: median(results.map((r) => r.otherCpuPct)),
      serverCpuMsPerReq: median(results.map((r) => r.serverCpuMsPerReq)),
      sandbox: results[0].sandbox,
      roomCache: results[0].roomCache,
      sandboxCpuPct: median(results.map((r) => r.sandboxCpuPct)),
      sandboxCpuMsPerReq: median(results.map((r) => r.sandboxCpuMsPerReq)),
      quietStarts: results.filter((r) => r.quietBefore?.quiet === true).length,
      rpsAll: results.map((r) => r.rps),
      p99All: results.map((r) => r.p99),
      non2xxTotal: sum(results.map((r) => r.non2xx)),
      errorsTotal: sum(results.map((r) => r.errors)),
      timeoutsTotal: sum(results.map((r) => r.timeouts)),
      okFalseTotal: sum(results.map((r) => r.okFalse)),
    };
  }
  const ratios = {};
  const ceilingRps = medians.ceiling?.rps;
  for (const scenario of Object.keys(medians)) {
    if (ceilingRps) ratios[scenario] = medians[scenario].rps / ceilingRps;
  }
  const roundRatios = {};
  for (const scenario of Object.keys(runs)) {
    roundRatios[scenario] = runs[scenario].map((r, i) => (runs.ceiling?.[i] ? r.rps / runs.ceiling[i].rps : undefined));
  }
  // a what-if run (BENCH_FREE_MESSENGER) measures no figure of the service: it is held to no target
  const measuredAsIs = (scenario) => !String(medians[scenario]?.sandbox ?? '').startsWith('none');
  const verdicts = TARGETS.filter((t) => medians[t.scenario] && ratios[t.scenario] !== undefined && measuredAsIs(t.scenario)).map((t) => ({
    scenario: t.scenario,
    target: t.what,
    measured: t.value(medians[t.scenario], ratios[t.scenario]),
    pass: t.check(medians[t.scenario], ratios[t.scenario]),
  }));
  return { medians, ratios, roundRatios, verdicts };
}

export function machine() {
  const list = cpus();
  return {
    node: process.version,
    v8: process.versions.v8,
    platform: `${process.platform} ${process.arch}`,
    cpus: list.length,
    cpuModel: list[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 2 ** 30),
  };
}

function pad(text, width, right = false) {
  const s = String(text ?? '-');
  return right ? s.padStart(width) : s.padEnd(width);
}

export function formatTable({ machine: m, options, summary, fill }) {
  const lines = [];
  lines.push(`Brandwire benchmarks - Node ${m.node} (V8 ${m.v8}), ${m.platform}, ${m.cpus} CPUs (${m.cpuModel}), ${m.sqlite ?? ''}`);
  if (m.code) lines.push(`code: ${m.code.commit}${m.code.changedFiles ? ` + ${m.code.changedFiles} changed files` : ''}`);
  lines.push(
    `autocannon: ${options.connections} connections, ${options.duration} s measured after ${options.warmup} s warm-up; ${options.runs} run(s) per scenario, medians shown` +
      (options.logLevel ? `; LOG_LEVEL=${options.logLevel}` : ''),
  );
  if (fill) lines.push(`retrieval database: ${fill.items.toLocaleString('en')} journal items, ${fill.users.toLocaleString('en')} customers, queried room: ${fill.hotItems} items (filled in ${fill.seconds} s)`);
  lines.push('');
  const header = [pad('scenario', 68), pad('req/s', 8, true), pad('p50 ms', 7, true), pad('p99 ms', 7, true), pad('non-2xx', 8, true), pad('ok:false', 9, true), pad('srv CPU', 8, true), pad('loop', 5, true), pad('CPU ms/req', 10, true), pad('other', 6, true), pad('quiet', 6, true), pad('x ceiling', 10, true), '  req/s of each run'];
  lines.push(header.join(' '));
  lines.push('-'.repeat(header.join(' ').length + 4));
  for (const [scenario, med] of Object.entries(summary.medians)) {
    const ratio = summary.ratios[scenario];
    lines.push(
      [
        pad(`${LABELS[scenario] ?? scenario}${med.sandbox ? ` [sandbox: ${med.sandbox}]` : ''}${med.roomCache ? ` [room cache: ${med.roomCache}]` : ''}`, 68),
        pad(med.rps, 8, true),
        pad(med.p50, 7, true),
        pad(med.p99, 7, true),
        pad(med.non2xxTotal, 8, true),
        pad(scenario === 'send' ? med.okFalseTotal : '-', 9, true),
        pad(med.serverCpuPct === undefined ? '-' : `${med.serverCpuPct}%`, 8, true),
        pad(med.serverLoopPct === undefined ? '-' : `${med.serverLoopPct}%`, 5, true),
        pad(med.serverCpuMsPerReq === undefined ? '-' : med.serverCpuMsPerReq.toFixed(3), 10, true),
        pad(med.otherCpuPct === undefined ? '-' : `${med.otherCpuPct}%`, 6, true),
        pad(`${med.quietStarts}/${med.runs}`, 6, true),
        pad(ratio === undefined ? '-' : ratio.toFixed(2), 10, true),
        `  ${med.rpsAll.join(', ')}`,
      ].join(' '),
    );
  }
  for (const [scenario, med] of Object.entries(summary.medians)) {
    if (med.sandbox === 'process') {
      lines.push(`${scenario}: the sandbox messenger ran as its own process (BENCH_SANDBOX=process), not billed to the server: it used ${med.sandboxCpuPct ?? '?'}% of a core, ${med.sandboxCpuMsPerReq?.toFixed(3) ?? '?'} ms/req`);
    } else if (med.sandbox === 'embedded') {
      lines.push(`${scenario}: the sandbox messenger ran inside the API process (BENCH_SANDBOX=embedded): its HTTP server and logic are billed to the server`);
    }
  }
  lines.push('srv CPU: CPU use of the server process (% of one core, all its threads); loop: how busy its event loop, the one JavaScript');
  lines.push('thread, was (near 100%, that thread is the limit whatever the cores have free); CPU ms/req: its CPU time per answered request;');
  lines.push('other: CPU use of all other processes but the load generator (% of one core), i.e. noise from a shared machine;');
  lines.push('quiet: runs that started after 5 quiet seconds on the machine (BENCH_QUIET_WAIT).');
  if (summary.verdicts.length > 0) {
    lines.push('');
    lines.push('Targets:');
    for (const v of summary.verdicts) {
      lines.push(`  ${v.pass ? 'PASS' : 'MISS'}  ${pad(v.scenario, 10)} ${pad(v.target, 36)} measured ${v.measured}`);
    }
  }
  return lines.join('\n');
}

export function writeResults(dir, data) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${process.version}.json`);
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return file;
}
