/** Peak resident memory (VmHWM, Linux /proc) of processes, also of short-lived ones that must be sampled while they run. */
import { readdirSync, readFileSync } from 'node:fs';

/** VmHWM of a process in MB, or undefined when it is gone. */
export function peakRssMb(pid = process.pid) {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

function childrenOf(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      return text === '' ? [] : text.split(' ').map(Number);
    });
  } catch {
    return [];
  }
}

/**
 * Samples the peak RSS of a process and its descendants every `everyMs` until stopped (VmHWM only grows, so the
 * last sample of each process misses at most what it grew in its last `everyMs`). `stop()` gives the largest
 * peak of one process and which command it was.
 */
export function sampleTreePeakRss(rootPid, everyMs = 100) {
  const peaks = new Map();
  const sample = () => {
    const queue = [rootPid];
    while (queue.length > 0) {
      const pid = queue.shift();
      const mb = peakRssMb(pid);
      if (mb === undefined) continue;
      const known = peaks.get(pid);
      if (!known) {
        let command = '';
        try {
          command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(0, 4).join(' ');
        } catch {
          command = String(pid);
        }
        peaks.set(pid, { mb, command });
      } else if (mb > known.mb) known.mb = mb;
      queue.push(...childrenOf(pid));
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      let top = { mb: 0, command: '' };
      for (const peak of peaks.values()) if (peak.mb > top.mb) top = peak;
      return top;
    },
    sample,
  };
}
