/**
 * Opening the Kuzu database: the holder file is written first, so a process that Kuzu refuses ("Could not set
 * lock on file") can read who holds the graph and say so instead of passing Kuzu's message on.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { type GraphHolder, KnowledgeGraphError, unfinishedWriteError } from './errors';
import { kuzu, type KuzuConnection, type KuzuDatabase } from './kuzu-native';
import { READ_QUERY_TIMEOUT_MS } from './kuzu-run';
import { claimInProcess, lockedError, readHolders, releaseInProcess, removeHolderFile, writeHolderFile } from './lock-holders';
import type { OpenOptions } from './types';

/** Enough for rebuilding the full-text indexes of about a million messages while the whole process stays under 1 GiB. */
const DEFAULT_BUFFER_POOL_MB = 448;

export interface OpenDatabase {
  path: string;
  readOnly: boolean;
  db: KuzuDatabase;
  conn: KuzuConnection;
  /** closes the connection and the database and gives up the holder file */
  close: () => Promise<void>;
}

function defaultHolder(): string {
  const script = process.argv[1];
  return script === undefined ? 'a node process' : `a node process running ${basename(script)}`;
}

/**
 * A WAL left beside the database means its last writer died (a clean close checkpoints it away). Kuzu replays
 * it at open, but in the session that replayed it, creating a full-text index fails ("Cannot find table catalog
 * entry with id ...") and leaves a broken one listed; closing once checkpoints the replay, and the database
 * opened again behaves.
 */
async function settleAfterCrash(full: string, bufferBytes: number): Promise<void> {
  const { Database } = kuzu();
  const db = new Database(full, bufferBytes, true, false);
  try {
    await db.init();
  } finally {
    await db.close();
  }
}

export async function openDatabase(path: string, options: OpenOptions): Promise<OpenDatabase> {
  const full = resolve(path);
  const readOnly = options.readOnly === true;
  if ((readOnly || options.create === false) && !existsSync(full)) {
    throw new KnowledgeGraphError('GRAPH_MISSING', `There is no knowledge graph at ${full} yet: install and build it first.`);
  }
  // owner only: the graph holds customers' words
  if (!readOnly) mkdirSync(dirname(full), { recursive: true, mode: 0o700 });
  const holder: GraphHolder = { pid: process.pid, description: options.holder ?? defaultHolder(), readOnly, since: new Date().toISOString() };
  claimInProcess(full, holder);
  const holderFile = writeHolderFile(full, holder);
  const giveUp = (): void => {
    removeHolderFile(holderFile);
    releaseInProcess(full, holder);
  };
  const { Database, Connection } = kuzu();
  const bufferBytes = (options.bufferPoolMb ?? DEFAULT_BUFFER_POOL_MB) * 1024 * 1024;
  let db: KuzuDatabase | undefined;
  try {
    if (!readOnly && existsSync(`${full}.wal`)) await settleAfterCrash(full, bufferBytes);
    db = new Database(full, bufferBytes, true, readOnly);
    await db.init();
    const conn = new Connection(db);
    await conn.init();
    // a query left running would hold the one connection every later caller waits for
    if (readOnly) conn.setQueryTimeout(options.queryTimeoutMs ?? READ_QUERY_TIMEOUT_MS);
    const close = async (): Promise<void> => {
      try {
        await conn.close();
        await db?.close();
      } finally {
        giveUp();
      }
    };
    return { path: full, readOnly, db, conn, close };
  } catch (error) {
    await db?.close().catch(() => undefined);
    giveUp();
    if (/Could not set lock on file/i.test((error as Error).message)) {
      throw lockedError(full, readHolders(full).filter((h) => h.pid !== process.pid), readOnly);
    }
    // a writer killed in a checkpoint: only a read-write open (install, build, query --write) completes it
    if (/replay shadow pages/i.test((error as Error).message)) throw unfinishedWriteError(full);
    throw error;
  }
}
