import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sqliteDriver } from './sqlite-driver';

export const LOCK_FILE_NAME = 'brandwire.lock';
const HOLDER_FILE_NAME = 'brandwire.lock.pid';
const LOCK_WAIT_MS = 250;

const IN_USE = 'DATA_DIR_IN_USE';

/** Another service holds the data folder. */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
  readonly code = IN_USE;

  constructor(readonly dataDir: string, holderPid: number | undefined) {
    super(
      `the data folder ${dataDir} is in use by another Brandwire service${holderPid ? ` (pid ${holderPid})` : ''}: ` +
        'one service works one SQLite data folder; stop that one, or give this one its own BRANDWIRE_DATA_DIR',
    );
  }
}

/** Whether an error is a DataDirInUseError, also one carried back from the store's thread (a copy, not an instance). */
export function isDataDirInUse(error: unknown): error is Error {
  return error instanceof Error && (error as { code?: unknown }).code === IN_USE;
}

export interface DataDirLock {
  release(): void;
}

/**
 * Takes the data folder for this process, or throws DataDirInUseError at once. The service assumes it is the only
 * writer of its SQLite file (its room page cache, its signal delivery, its first-open migration), so a second
 * service on the same folder must not start. The lock is SQLite's own file lock on a small side database held in
 * exclusive locking mode: the operating system drops it when the process ends, however it ends, so a crash never
 * leaves a stale lock behind.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const SqliteDatabase = sqliteDriver();
  // a short wait for a service starting at the same moment to finish taking the lock or to give up
  const lock = new SqliteDatabase(join(dataDir, LOCK_FILE_NAME), { timeout: LOCK_WAIT_MS });
  try {
    // The exclusive lock first, in normal locking mode: a connection that fails to get it there gives its shared
    // lock back before it waits, so of two services starting together one gets the folder (in exclusive locking
    // mode both would keep their shared locks and both be refused). Exclusive locking mode, set while the lock is
    // held, then keeps it after the commit, until the connection closes.
    lock.exec('begin exclusive');
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('create table if not exists holder (pid integer not null); delete from holder;');
    lock.prepare('insert into holder (pid) values (?)').run(process.pid);
    lock.exec('commit');
  } catch (error) {
    lock.close();
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') throw new DataDirInUseError(dataDir, holderPid(dataDir));
    throw error;
  }
  try {
    // the holder's pid in a plain file too, for the message of a refused service (the side database cannot be read)
    writeFileSync(join(dataDir, HOLDER_FILE_NAME), `${process.pid}\n`);
  } catch (error) {
    lock.close();
    throw error;
  }
  return { release: () => lock.close() };
}

function holderPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDir, HOLDER_FILE_NAME), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
