import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';

export interface BuildChild {
  child: ChildProcess;
  /** resolves once the child has printed `line` (a build phase, `paused` or `built`) */
  reached: (line: string) => Promise<void>;
  /** SIGKILL, as an OOM kill or a crash would end it, and wait for the exit */
  kill: () => Promise<void>;
}

/** Starts a child process building the graph at `path` from `count` test conversations (see build-graph.cjs). */
export function buildInChild(path: string, count: number, mode: 'pause-in-copy' | 'run' = 'run'): BuildChild {
  // its CSV folder in the test's temp folder: a killed build leaves it behind, and the test removes that folder
  const env = { ...process.env, TMPDIR: dirname(path) };
  const child = spawn(process.execPath, [join(__dirname, 'build-graph.cjs'), path, String(count), mode], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let out = '';
  const waiters: Array<() => void> = [];
  const exited = new Promise<void>((done) =>
    child.once('exit', () => {
      for (const wake of waiters.splice(0)) wake();
      done();
    }),
  );
  const onData = (chunk: Buffer): void => {
    out += chunk.toString();
    for (const wake of waiters.splice(0)) wake();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const reached = (line: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the child did not reach "${line}" in time: ${out}`)), 20_000);
      const check = (): void => {
        if (out.split('\n').includes(line)) {
          clearTimeout(timer);
          resolve();
        } else if (/^failed: /m.test(out) || child.exitCode !== null) {
          clearTimeout(timer);
          reject(new Error(`the child ended before "${line}": ${out}`));
        } else {
          waiters.push(check);
        }
      };
      check();
    });
  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  return { child, reached, kill };
}
