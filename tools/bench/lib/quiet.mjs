/**
 * The machine may be shared (tests, builds of other people): before each measurement, wait until the
 * other processes have left the CPUs alone for a few seconds, up to a limit. The result says how it went.
 */
import { cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { machineMeter } from './proc-cpu.mjs';

/**
 * @param {object} o
 * @param {number} o.maxWaitS      give up after this long (0: do not wait)
 * @param {number} [o.quietS]      consecutive quiet seconds wanted
 * @param {number} [o.threshold]   busy cores below which a second counts as quiet
 * @param {(s: string) => void} [o.say]
 */
export async function waitForQuietMachine({ maxWaitS, quietS = 5, threshold = 0.3, say = () => {} }) {
  if (maxWaitS <= 0) return { waitedS: 0, quiet: undefined };
  const count = cpus().length;
  const started = Date.now();
  let streak = 0;
  let told = false;
  while ((Date.now() - started) / 1000 < maxWaitS) {
    const meter = machineMeter(count);
    await sleep(1000);
    const busy = meter() ?? 0;
    streak = busy < threshold ? streak + 1 : 0;
    if (streak >= quietS) return { waitedS: Math.round((Date.now() - started) / 1000), quiet: true };
    if (!told && Date.now() - started > 3000) {
      say(`  waiting for the other processes to leave the CPUs alone (busy ${busy.toFixed(2)} of ${count} cores; up to ${maxWaitS} s) ...`);
      told = true;
    }
  }
  say(`  the machine stayed busy for ${maxWaitS} s: measuring anyway`);
  return { waitedS: maxWaitS, quiet: false };
}
