/** Drives HTTP load with autocannon: an unmeasured warm-up, then the measured run. */
import autocannon from 'autocannon';
import { cpus, loadavg } from 'node:os';
import { cpuMeter, machineMeter } from './proc-cpu.mjs';
import { waitForQuietMachine } from './quiet.mjs';

function run(opts) {
  return new Promise((resolve, reject) => {
    autocannon(opts, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * @param {object} o
 * @param {string} o.url          base url of the server
 * @param {object[]} o.requests   autocannon requests (method, path, headers, body, setupRequest, onResponse)
 * @param {number} o.connections
 * @param {number} o.duration     seconds measured
 * @param {number} o.warmup       seconds of load before, not measured
 * @param {number} [o.serverPid]  to report the server's CPU use during the measurement
 * @param {() => ({idle: number, active: number} | undefined)} [o.serverLoopUse]  the server's cumulative event-loop use
 * @param {number} [o.sandboxPid] a sandbox messenger process the server calls: its CPU use is reported apart
 * @param {() => void} [o.beforeMeasure]  called between warm-up and measurement (reset counters)
 * @param {number} [o.quietWait]  wait up to this many seconds for a quiet machine before the warm-up
 * @param {(s: string) => void} [o.say]
 */
export async function measureLoad({ url, requests, connections, duration, warmup, serverPid, serverLoopUse, sandboxPid, beforeMeasure, quietWait = 0, say }) {
  const common = { url, connections, requests, timeout: 10, pipelining: 1 };
  const quiet = await waitForQuietMachine({ maxWaitS: quietWait, say });
  if (warmup > 0) await run({ ...common, duration: warmup });
  beforeMeasure?.();
  const loadBefore = Math.round(loadavg()[0] * 100) / 100;
  const serverCpu = serverPid ? cpuMeter(serverPid) : () => undefined;
  const serverLoop = loopMeter(serverLoopUse);
  const sandboxCpu = sandboxPid ? cpuMeter(sandboxPid) : () => undefined;
  const machineBusy = machineMeter(cpus().length);
  const clientStart = process.cpuUsage();
  const wallStart = process.hrtime.bigint();
  const result = await run({ ...common, duration });
  const wall = Number(process.hrtime.bigint() - wallStart) / 1e9;
  const client = process.cpuUsage(clientStart);
  const serverCpuPct = serverCpu();
  const serverLoopPct = serverLoop();
  const sandboxCpuPct = sandboxCpu();
  const clientCpuPct = Math.round(((client.user + client.system) / 1e6 / wall) * 100);
  const busyCores = machineBusy();
  return {
    rps: Math.round(result.requests.average),
    total: result.requests.total,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    mean: Math.round(result.latency.average * 100) / 100,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    serverCpuPct,
    /** CPU time of the server per answered request: robust to other load on the machine, unlike req/s */
    serverCpuMsPerReq: serverCpuPct === undefined || result.requests.total === 0 ? undefined : Math.round(((serverCpuPct / 100) * wall * 1000 * 1000) / result.requests.total) / 1000,
    /** how busy the server's event loop (its one JavaScript thread) was: near 100 %, that thread is the limit */
    serverLoopPct,
    clientCpuPct,
    /** CPU use of a sandbox messenger process of its own (% of one core); undefined when there is none */
    sandboxCpuPct,
    sandboxCpuMsPerReq: sandboxCpuPct === undefined || result.requests.total === 0 ? undefined : Math.round(((sandboxCpuPct / 100) * wall * 1000 * 1000) / result.requests.total) / 1000,
    /** CPU used by everything else on the machine during the measurement (not the sandbox process), in % of one core */
    otherCpuPct: busyCores === undefined || serverCpuPct === undefined ? undefined : Math.max(0, Math.round(busyCores * 100 - serverCpuPct - clientCpuPct - (sandboxCpuPct ?? 0))),
    loadAverageBefore: loadBefore,
    quietBefore: quiet,
    durationS: result.duration,
  };
}

/** The share of the time the server's event loop was busy from now to the call of the function returned (%). */
function loopMeter(loopUse) {
  const start = loopUse?.();
  return () => {
    const end = loopUse?.();
    if (!start || !end) return undefined;
    const active = end.active - start.active;
    const idle = end.idle - start.idle;
    return active + idle > 0 ? Math.round((active / (active + idle)) * 100) : undefined;
  };
}
