import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from './gateway-state';

/** The gateway daemon's entry, in the installed @brandwire/gateway package. */
export function gatewayMainPath(): string {
  // eslint-disable-next-line @nx/enforce-module-boundaries -- only the daemon's file is located, to spawn it; no app code is imported
  return join(dirname(require.resolve('@brandwire/gateway/package.json')), 'dist', 'main.js');
}

/** The log of the gateway: the state file's folder. */
export function gatewayLogPath(statePath: string): string {
  return join(dirname(statePath), 'gateway.log');
}

/**
 * Whether `pid` runs the gateway of this state file: on Linux its command line has `--state <statePath>`;
 * elsewhere a live pid is taken for it. Keeps stop from signalling a process that reused a dead gateway's pid.
 */
export function runsGateway(pid: number, statePath: string): boolean {
  if (!isAlive(pid)) return false;
  const cmdline = `/proc/${pid}/cmdline`;
  if (!existsSync(cmdline)) return true;
  try {
    const args = readFileSync(cmdline, 'utf8').split('\0');
    return args.some((arg, i) => arg === '--state' && args[i + 1] === statePath);
  } catch {
    return true;
  }
}

export interface SpawnedDaemon {
  pid: number;
  /** true once it exited (it stays a zombie of this process until then, so its pid alone cannot tell) */
  exited(): boolean;
}

/** Starts the daemon detached from this process, its stdout and stderr appended to `logPath`. */
export function spawnDetached(args: readonly string[], logPath: string): Promise<SpawnedDaemon> {
  mkdirSync(dirname(logPath), { recursive: true, mode: 0o700 });
  const log = openSync(logPath, 'a', 0o600);
  try {
    const child = spawn(process.execPath, [gatewayMainPath(), ...args], { detached: true, stdio: ['ignore', log, log], windowsHide: true });
    let exited = false;
    child.once('exit', () => (exited = true));
    return new Promise((done, reject) => {
      child.once('error', reject);
      child.once('spawn', () => {
        child.unref();
        done({ pid: child.pid as number, exited: () => exited });
      });
    });
  } finally {
    closeSync(log);
  }
}

/** Polls `ready` every 100 ms until it is true (→ true), the daemon exited or the time is up (→ false). */
export async function waitUntil(ready: () => Promise<boolean>, daemon: SpawnedDaemon, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await ready()) return true;
    if (daemon.exited() || Date.now() >= deadline) return false;
    await sleep(100);
  }
}

/** SIGTERM, then SIGKILL when it has not exited within `graceMs`; resolves once the process is gone. */
export async function terminate(pid: number, graceMs: number): Promise<'exited' | 'killed'> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return 'exited';
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return 'exited';
    await sleep(50);
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return 'exited';
  }
  while (isAlive(pid)) await sleep(20);
  return 'killed';
}

/** The last lines of the log, to show why a start failed. */
export function logTail(logPath: string, lines = 15): string {
  try {
    return readFileSync(logPath, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}
