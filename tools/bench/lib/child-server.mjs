/** Starts an HTTP server as a child process and waits for its "listening on <url>" line. */
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const LOOP_METER = fileURLToPath(new URL('./event-loop-meter.cjs', import.meta.url));

const LISTENING = /listening on (https?:\/\/\S+)/;

/**
 * @param {object} o
 * @param {string} o.name      label for errors
 * @param {string[]} o.args    node arguments (script first, after any node flags)
 * @param {string} o.cwd
 * @param {Record<string,string>} [o.env]  added to process.env
 * @param {string} o.logFile   stdout and stderr of the child go there
 * @param {string[]} [o.nodeFlags]
 * @param {number} [o.startTimeoutMs]
 */
export async function startChildServer({ name, args, cwd, env = {}, logFile, nodeFlags = [], startTimeoutMs = 60_000 }) {
  const loopFile = `${logFile}.loop.json`;
  const child = spawn(process.execPath, [...nodeFlags, '--require', LOOP_METER, ...args], {
    cwd,
    env: { ...process.env, ...env, BENCH_LOOP_FILE: loopFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(logFile, { flags: 'a' });
  // the last output of the child, to show with an error
  let tail = '';
  const keep = (chunk) => {
    tail = (tail + chunk.toString('utf8')).slice(-6000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let seen = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not print "listening on <url>" within ${startTimeoutMs} ms (log: ${logFile})`)), startTimeoutMs);
    const onData = (chunk) => {
      log.write(chunk);
      if (seen === null) return;
      seen += chunk.toString('utf8');
      const match = LISTENING.exec(seen);
      if (match) {
        seen = null;
        clearTimeout(timer);
        resolve(match[1]);
      } else if (seen.length > 1_000_000) {
        seen = seen.slice(-10_000);
      }
    };
    // keep draining both pipes for the whole life of the child, or it would block on a full pipe
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => {
      log.write(chunk);
      if (seen !== null) seen += chunk.toString('utf8');
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (code ${code}, signal ${signal}) before listening:\n${String(seen ?? '').slice(-4000)}`));
    });
  });

  return {
    url,
    pid: child.pid,
    /** the event loop's cumulative use so far, `{ idle, active }` in ms (undefined before the first sample) */
    loopUse() {
      try {
        return JSON.parse(readFileSync(loopFile, 'utf8'));
      } catch {
        return undefined;
      }
    },
    /** the child's last output, and how it exited if it did */
    tail() {
      const exit = child.exitCode !== null || child.signalCode !== null ? `\n[exited: code ${child.exitCode}, signal ${child.signalCode}]` : '';
      return `${tail}${exit}`;
    },
    /** SIGTERM, then SIGKILL after a grace period; resolves when the child is gone. */
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const result = await exited;
      clearTimeout(timer);
      await new Promise((resolve) => log.end(resolve));
      return result;
    },
  };
}
