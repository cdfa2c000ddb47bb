/** CPU time of a process (Linux /proc), to show how busy the server was during a measurement. */
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** user+system CPU seconds of the process so far, or undefined where /proc is unavailable. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // after "pid (comm) ": state is field 0, utime field 11, stime field 12
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Starts measuring; the returned function gives the CPU use since then as a percentage of one core. */
export function cpuMeter(pid) {
  const startCpu = cpuSeconds(pid);
  const startWall = process.hrtime.bigint();
  return () => {
    const endCpu = cpuSeconds(pid);
    const wall = Number(process.hrtime.bigint() - startWall) / 1e9;
    if (startCpu === undefined || endCpu === undefined || wall <= 0) return undefined;
    return Math.round(((endCpu - startCpu) / wall) * 100);
  };
}

/** Busy and total jiffies of the whole machine (all CPUs), from /proc/stat. */
function machineJiffies() {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
    const v = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = v[3] + (v[4] || 0); // idle + iowait
    const total = v.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/**
 * Starts measuring the whole machine; the returned function gives the busy share of all CPUs, in cores
 * (e.g. 1.85 of 2), over the time since.
 */
export function machineMeter(cpuCount) {
  const start = machineJiffies();
  return () => {
    const end = machineJiffies();
    if (!start || !end || end.total === start.total) return undefined;
    return Math.round(((end.busy - start.busy) / (end.total - start.total)) * cpuCount * 100) / 100;
  };
}
