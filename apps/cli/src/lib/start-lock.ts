import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { CliError } from './cli-error';
import { EXIT } from './exit-codes';
import { isAlive } from './gateway-state';

const POLL_MS = 100;
const STALE_EMPTY_MS = 5_000;

/**
 * Runs `work` holding the lock file `path` (created exclusively, holding this process's pid): two starts at the
 * same moment take turns, and the second finds the first's gateway running instead of failing on its port. A
 * lock left by a process that is gone is taken over.
 */
export async function whileHolding<T>(path: string, waitMs: number, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + waitMs;
  while (!tryTake(path)) {
    if (Date.now() > deadline) {
      throw new CliError('GATEWAY_BUSY', `another \`brandwire gateway\` command has been starting the gateway for over ${Math.round(waitMs / 1000)} s`, EXIT.error, { lockPath: path }, `try again once it has finished, or remove ${path} if no such command runs`);
    }
    await sleep(POLL_MS);
  }
  try {
    return await work();
  } finally {
    rmSync(path, { force: true });
  }
}

function tryTake(path: string): boolean {
  try {
    writeFileSync(path, String(process.pid), { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const holder = holderOf(path);
  if (holder === undefined ? writtenLongAgo(path) : !isAlive(holder)) rmSync(path, { force: true });
  return false;
}

/** An empty lock file is one being written this very moment, unless its writer died before writing: long ago. */
function writtenLongAgo(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > STALE_EMPTY_MS;
  } catch {
    return false;
  }
}

/** The pid in the lock file; undefined while it is being written (empty) or once it is gone. */
function holderOf(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
