import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A port nothing listens on (taken from the system, then let go). */
export function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The first line a long-running command prints on stdout; fails when it exits first. */
export function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((done, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const end = out.indexOf('\n');
      if (end >= 0) done(out.slice(0, end));
    });
    child.once('exit', (code) => reject(new Error(`exited with ${String(code)} before printing a line:\n${out}\n${err}`)));
  });
}

/** Resolves when the process has exited (at once when it already has). */
export function exited(child: ChildProcess): Promise<void> {
  return new Promise((done) => (child.exitCode !== null || child.signalCode !== null ? done() : child.once('exit', () => done())));
}
