import { spawnSync } from 'node:child_process';

/**
 * Runs Cypher statements on the graph at `path` in a child process that then dies by SIGKILL, with Kuzu's own
 * API only: what a process killed at that point leaves behind, whatever this library would do next.
 */
export function runThenCrash(path: string, statements: readonly string[]): void {
  const script = `
    const kuzu = require(${JSON.stringify(require.resolve('kuzu'))});
    (async () => {
      const db = new kuzu.Database(${JSON.stringify(path)}, 64 * 1024 * 1024, true, false);
      await db.init();
      const conn = new kuzu.Connection(db);
      await conn.init();
      for (const statement of ${JSON.stringify(statements)}) (await conn.query(statement)).close();
      process.kill(process.pid, 'SIGKILL');
    })();`;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
  if (run.signal !== 'SIGKILL') throw new Error(`the child was to die by SIGKILL: ${run.stderr}`);
}

/** Whether Kuzu refuses to open the graph at `path` read-only because a checkpoint was cut short (shadow pages to replay). */
async function needsShadowReplay(path: string): Promise<boolean> {
  const kuzu = require('kuzu') as typeof import('kuzu');
  const db = new kuzu.Database(path, 64 * 1024 * 1024, true, true);
  try {
    await db.init();
    return false;
  } catch (error) {
    return /replay shadow pages/i.test((error as Error).message);
  } finally {
    await db.close().catch(() => undefined);
  }
}

/**
 * Leaves the graph at `path` as a process killed in the middle of a checkpoint does (as a build killed while it
 * checkpoints the dropped full-text indexes): its WAL ends in the checkpoint's record and the shadow pages are not
 * yet copied into the data file, so that only a read-write open can finish the checkpoint. A child runs
 * `statements`, then CHECKPOINT, and SIGKILLs itself the moment the WAL grows by that record; the window until
 * Kuzu clears the WAL is short, so a miss is tried again (it caught about one time in two here).
 */
export async function crashInCheckpoint(path: string, statements: readonly string[], attempts = 20): Promise<void> {
  const script = `
    const fs = require('node:fs');
    const kuzu = require(${JSON.stringify(require.resolve('kuzu'))});
    const path = ${JSON.stringify(path)};
    const size = (file) => { try { return fs.statSync(file).size; } catch { return -1; } };
    (async () => {
      const db = new kuzu.Database(path, 64 * 1024 * 1024, true, false);
      await db.init();
      const conn = new kuzu.Connection(db);
      await conn.init();
      for (const statement of ${JSON.stringify(statements)}) (await conn.query(statement)).close();
      const before = size(path + '.wal');
      const checkpoint = conn.query('CHECKPOINT');
      // the query reaches the native side after a turn; the checkpoint then runs on a worker thread
      await new Promise((resume) => setImmediate(resume));
      const until = Date.now() + 10000;
      while (Date.now() < until) {
        const wal = size(path + '.wal');
        if (wal > before) process.kill(process.pid, 'SIGKILL');
        if (wal < before) break;
      }
      await checkpoint;
      process.kill(process.pid, 'SIGKILL');
    })();`;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
    if (run.signal !== 'SIGKILL') throw new Error(`the child was to die by SIGKILL: ${run.stderr}`);
    if (await needsShadowReplay(path)) return;
  }
  throw new Error(`no kill in ${attempts} attempts came between the checkpoint's record and the end of the checkpoint`);
}
