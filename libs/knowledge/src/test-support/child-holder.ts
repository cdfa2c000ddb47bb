import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export interface HeldGraph {
  child: ChildProcess;
  release: () => Promise<void>;
}

/** Starts a child process that opens the graph at `path` as `holder` and keeps it open until released. */
export function holdInChild(path: string, holder: string, readOnly = false): Promise<HeldGraph> {
  const child = spawn(process.execPath, [join(__dirname, 'hold-graph.cjs'), path, holder, readOnly ? 'read-only' : 'read-write'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const release = async (): Promise<void> => {
    child.stdin?.end();
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the child did not open the graph in time: ${out}`)), 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready')) {
        clearTimeout(timer);
        resolve({ child, release });
      } else if (out.includes('failed')) {
        clearTimeout(timer);
        reject(new Error(out));
      }
    });
  });
}
