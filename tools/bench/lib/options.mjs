/** Benchmark settings, from the environment (all optional). */
import { sandboxMode } from './sandbox.mjs';

function number(name, fallback, { min = 0 } = {}) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number >= ${min}, got "${raw}"`);
  return value;
}

const SCENARIOS = ['ceiling', 'send', 'retrieval'];

function scenarios() {
  const raw = process.env.BENCH_ONLY;
  if (!raw) return SCENARIOS;
  const wanted = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = wanted.find((s) => !SCENARIOS.includes(s));
  if (unknown) throw new Error(`BENCH_ONLY: unknown scenario "${unknown}" (known: ${SCENARIOS.join(', ')})`);
  return SCENARIOS.filter((s) => wanted.includes(s));
}

export function readOptions() {
  return {
    /** seconds of measured load per scenario and run */
    duration: number('BENCH_DURATION', 10, { min: 1 }),
    /** seconds of unmeasured load just before each measurement */
    warmup: number('BENCH_WARMUP', 3),
    connections: number('BENCH_CONNECTIONS', 50, { min: 1 }),
    /** each scenario is measured this many times (rounds ceiling -> send -> retrieval); medians are reported */
    runs: number('BENCH_RUNS', 3, { min: 1 }),
    /** simulated customers the text-send load goes round-robin over */
    customers: number('BENCH_CUSTOMERS', 200, { min: 1 }),
    /** journal items pre-filled for the retrieval scenario, and over how many customers */
    items: number('BENCH_ITEMS', 1_000_000, { min: 1000 }),
    users: number('BENCH_USERS', 10_000, { min: 10 }),
    /** items of the one room the retrieval load reads (must be >= max) */
    hotItems: number('BENCH_HOT_ITEMS', 1000, { min: 300 }),
    max: number('BENCH_MAX', 100, { min: 1 }),
    scenarios: scenarios(),
    /** LOG_LEVEL for the service; unset = the service default (info) */
    logLevel: process.env.BENCH_LOG_LEVEL || undefined,
    /** a folder: the service and ceiling processes run with --cpu-prof and write their profiles there */
    cpuProfDir: process.env.BENCH_CPU_PROF || undefined,
    /** before each measurement, wait up to this many seconds for the machine to be quiet (0: never wait) */
    quietWait: number('BENCH_QUIET_WAIT', 120),
    /** a what-if: the send scenario's messenger calls answered at once, without HTTP (probes/free-messenger.cjs) */
    freeMessenger: process.env.BENCH_FREE_MESSENGER === '1',
    /** where the sandbox messenger of the send scenario runs: 'process' (its own process) or 'embedded' (in the API) */
    sandbox: sandboxMode(),
    /** keep the temporary folder (databases, logs) */
    keep: process.env.BENCH_KEEP === '1',
  };
}
