import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CliError } from './cli-error';
import { EXIT } from './exit-codes';
import { type GatewayState, isAlive } from './gateway-state';

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
  if (!existsSync(`/proc/${pid}/cmdline`)) return true;
  const args = commandLineOf(String(pid));
  return args !== undefined && isGatewayOf(args, statePath);
}

/** Whether a command line is that of the gateway of this state file. */
function isGatewayOf(args: readonly string[], statePath: string): boolean {
  return args.some((arg, i) => arg === '--state' && args[i + 1] === statePath);
}

/**
 * The gateway of this state file found by its command line (Linux), for when the file is damaged, gone or names
 * another process: its pid, and its port and graph from its arguments; undefined when none runs, or where /proc is not.
 */
export function gatewayByCommandLine(statePath: string): GatewayState | undefined {
  for (const { pid, args } of commandLines()) {
    if (!isGatewayOf(args, statePath)) continue;
    const port = Number(argument(args, '--port'));
    if (!Number.isInteger(port) || port <= 0) continue;
    return { pid: Number(pid), port, graph: argument(args, '--graph') ?? '', startedAt: processStart(pid) };
  }
  return undefined;
}

/**
 * A gateway of any config folder whose command line says it listens on `port` (Linux): its pid and state file,
 * to name it when it refuses this folder's calls; undefined when none is found.
 */
export function gatewayOnPort(port: number): { pid: number; statePath: string } | undefined {
  for (const { pid, args } of commandLines()) {
    const statePath = argument(args, '--state');
    if (args[1] === gatewayMainPath() && argument(args, '--port') === String(port) && statePath !== undefined) return { pid: Number(pid), statePath };
  }
  return undefined;
}

/** The command line of every process this user may read (Linux: /proc); none where /proc is not. */
function* commandLines(): Generator<{ pid: string; args: string[] }> {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return;
  }
  for (const pid of pids) {
    const args = commandLineOf(pid);
    if (args) yield { pid, args };
  }
}

function commandLineOf(pid: string): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return undefined;
  }
}

/** The value after `flag` on a command line. */
function argument(args: readonly string[], flag: string): string | undefined {
  return args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined;
}

/** When process `pid` started (Linux: its start time in clock ticks after boot, 100 a second, and the boot time). */
function processStart(pid: string): string {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[19]);
    const boot = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]);
    if (Number.isFinite(ticks) && Number.isFinite(boot)) return new Date(boot * 1000 + ticks * 10).toISOString();
  } catch {
    // not Linux, or the process is gone: when it started is not known
  }
  return '';
}

export interface SpawnedDaemon {
  pid: number;
  /** true once it exited (it stays a zombie of this process until then, so its pid alone cannot tell) */
  exited(): boolean;
}

/** Starts the daemon detached from this process, its stdout and stderr appended to `logPath`. */
export function spawnDetached(args: readonly string[], logPath: string, env: Record<string, string> = {}): Promise<SpawnedDaemon> {
  mkdirSync(dirname(logPath), { recursive: true, mode: 0o700 });
  const log = openSync(logPath, 'a', 0o600);
  try {
    const child = spawn(process.execPath, [gatewayMainPath(), ...args], { detached: true, stdio: ['ignore', log, log], windowsHide: true, env: { ...process.env, ...env } });
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

/**
 * Sends `signal`; false when the process is gone already. A process of another user cannot be signalled
 * (EPERM): that is told, instead of a stop that reports success while the gateway runs on.
 */
function signalled(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
    throw new CliError('GATEWAY_FAILED', `the gateway (pid ${pid}) runs as another user, who may stop it; this user may not`, EXIT.error, { pid });
  }
}

/** SIGTERM, then SIGKILL when it has not exited within `graceMs`; resolves once the process is gone. */
export async function terminate(pid: number, graceMs: number): Promise<'exited' | 'killed'> {
  if (!signalled(pid, 'SIGTERM')) return 'exited';
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return 'exited';
    await sleep(50);
  }
  if (!signalled(pid, 'SIGKILL')) return 'exited';
  while (isAlive(pid)) await sleep(20);
  return 'killed';
}

/** The log's size now: where what a start is about to write begins. */
export function logSize(logPath: string): number {
  try {
    return statSync(logPath).size;
  } catch {
    return 0;
  }
}

/** The last lines the log got from `fromByte` on (what one start wrote), to show why it failed. */
export function logTail(logPath: string, fromByte = 0, lines = 15): string {
  try {
    return readFileSync(logPath).subarray(fromByte).toString('utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Whether some program accepts connections on the loopback port. */
export function portTaken(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(1000);
    const answer = (taken: boolean) => () => {
      socket.destroy();
      done(taken);
    };
    socket.once('connect', answer(true));
    socket.once('error', answer(false));
    socket.once('timeout', answer(false));
  });
}
