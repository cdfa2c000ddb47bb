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
