import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

const MAIN = resolve(__dirname, '../../dist/main.js');

export interface BuiltService {
  child: ChildProcess;
  url: string;
  /** everything the process printed on stdout and stderr so far */
  output: () => string;
}

/** Starts the built service as `npm start` does (PORT=0) and waits for its banner. */
export function startBuiltService(env: Record<string, string>): Promise<BuiltService> {
  const child = spawn(process.execPath, [MAIN], { env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start in time:\n${out}`)), 30_000);
    child.on('exit', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`service exited with ${String(code)}:\n${out}`));
    });
    const poll = setInterval(() => {
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1] && out.includes('API documentation')) {
        clearInterval(poll);
        clearTimeout(timer);
        resolveStart({ child, url: match[1], output: () => out });
      }
    }, 25);
  });
}

export function stopBuiltService(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | string | null> {
  return new Promise((done) => {
    child.removeAllListeners('exit');
    child.on('exit', (code, killedBy) => done(code ?? killedBy));
    child.kill(signal);
  });
}

export async function callJson(url: string, token: string, method: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return (await response.json()) as Record<string, unknown>;
}
