import { createWriteStream } from 'node:fs';
import { FileHandle, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { messageOf } from './error-message';
import { SessionEngine } from './sessions';
import { KeptRun, OtherVersionError, SNAPSHOT_VERSION, SnapshotLoader, SnapshotSource, snapshotLines } from './snapshot-lines';
import { SandboxState } from './state';
import { SandboxStateError } from './state-error';

const STATE_FILE = 'state.json';

/**
 * Reads the snapshot kept in `dir` into a fresh `state` (undefined when there is none); throws SandboxStateError
 * when it cannot. The file stays: removeSnapshot() takes it away once the sandbox listens with it restored.
 */
export async function readSnapshot(dir: string, state: SandboxState, engine: SessionEngine): Promise<KeptRun | undefined> {
  const file = join(dir, STATE_FILE);
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SandboxStateError(file, `is unreadable (${messageOf(err)})`);
  }
  try {
    return await loadLines(file, handle, new SnapshotLoader(state, engine));
  } catch (err) {
    throw err instanceof SandboxStateError ? err : new SandboxStateError(file, `is unreadable (${messageOf(err)})`);
  } finally {
    await handle.close();
  }
}

async function loadLines(file: string, handle: FileHandle, loader: SnapshotLoader): Promise<KeptRun> {
  let n = 0;
  for await (const text of handle.readLines({ encoding: 'utf8', autoClose: false })) {
    n += 1;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new SandboxStateError(file, `is unreadable (line ${n}: ${messageOf(err)})`);
    }
    try {
      loader.take(value);
    } catch (err) {
      if (err instanceof OtherVersionError) {
        throw new SandboxStateError(file, `is of version ${err.version}, this sandbox reads version ${SNAPSHOT_VERSION}`);
      }
      throw new SandboxStateError(file, `is not a sandbox state (line ${n}: ${messageOf(err)})`);
    }
    if (loader.done) return loader.result();
  }
  throw new SandboxStateError(file, n === 0 ? 'is empty' : `is not whole (it ends at line ${n}, without its end line)`);
}

/** Writes the snapshot whole or not at all (a stop cut short leaves the previous one), streamed line by line. */
export async function writeSnapshot(dir: string, source: SnapshotSource): Promise<void> {
  const file = join(dir, STATE_FILE);
  await pipeline(Readable.from(snapshotLines(source)), createWriteStream(`${file}.tmp`, { mode: 0o600 }));
  await rename(`${file}.tmp`, file);
}

/**
 * Takes the snapshot away once it is restored and the sandbox listens: the state moves on from here, and after a
 * crash, which writes none, the next start is empty rather than back in time (sessions already ended in progress
 * again, customer serials given a second time).
 */
export async function removeSnapshot(dir: string): Promise<void> {
  await rm(join(dir, STATE_FILE), { force: true });
}
