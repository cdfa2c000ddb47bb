import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DataDirInUseError, Store, isDataDirInUse, openStore } from './index';
import { type TestDatabase, sqliteTestDatabase } from './testing';

const STORE_DIST = resolve(__dirname, '../dist/index.js');
const LOCK_DIST = resolve(__dirname, '../dist/data-dir-lock.js');

/** A process of its own that opens a store on the folder and keeps it until killed. */
function holdInChild(dataDir: string): Promise<ChildProcess> {
  // the store is kept referenced and the process alive: a store that is garbage collected closes, and frees the folder
  const script = `require(${JSON.stringify(STORE_DIST)}).Store.open({ dataDir: ${JSON.stringify(dataDir)} }).then((s) => { globalThis.kept = s; setInterval(() => undefined, 1000); process.stdout.write('held\\n'); }, (e) => { process.stderr.write(String(e)); process.exit(3); });`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((done, fail) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('held')) done(child);
    });
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => fail(new Error(`the holder exited with ${String(code)}: ${out}`)));
  });
}

describe('one store per SQLite data folder', () => {
  let db: TestDatabase;
  beforeEach(() => {
    db = sqliteTestDatabase();
  });
  afterEach(() => db.drop());

  it.each([false, true])('refuses a second store on the folder (thread: %s) and opens again once the first is closed', async (thread) => {
    const first = await openStore({ dataDir: db.dataDir, thread });
    try {
      const refused: unknown = await openStore({ dataDir: db.dataDir, thread }).then(
        () => new Error('expected the second open to fail'),
        (e: unknown) => e,
      );
      expect(isDataDirInUse(refused)).toBe(true);
      expect((refused as Error).message).toBe(
        `the data folder ${db.dataDir} is in use by another Brandwire service (pid ${process.pid}): one service works one SQLite data folder; stop that one, or give this one its own BRANDWIRE_DATA_DIR`,
      );
      // from the store's thread the error comes back as a copy with its name and code, not as an instance
      expect([refused instanceof DataDirInUseError, (refused as Error).name]).toEqual([!thread, 'DataDirInUseError']);
      // the first store is untouched by the refusal
      await first.directory.upsertBrand({ id: 'acme', name: 'Acme' });
    } finally {
      await first.close();
    }
    const again = await openStore({ dataDir: db.dataDir, thread });
    expect((await again.directory.listBrands()).map((b) => b.id)).toEqual(['acme']);
    await again.close();
  });

  it('is held against other processes, and freed by the operating system when the holder dies, even killed', async () => {
    const holder = await holdInChild(db.dataDir);
    await expect(Store.open({ dataDir: db.dataDir })).rejects.toThrow(`is in use by another Brandwire service (pid ${holder.pid})`);
    await new Promise((done) => {
      holder.removeAllListeners('exit');
      holder.on('exit', done);
      holder.kill('SIGKILL');
    });
    const store = await Store.open({ dataDir: db.dataDir });
    await store.close();
  });

  it('lets exactly one of two services starting at the same moment have the folder', async () => {
    // several pairs, each pair released at the same instant once both processes are up
    for (let pair = 0; pair < 5; pair += 1) {
      const dataDir = join(db.dataDir, `pair-${pair}`);
      mkdirSync(dataDir);
      const at = Date.now() + 600;
      const outcomes = await Promise.all([openInChild(dataDir, at), openInChild(dataDir, at)]);
      await Promise.all(outcomes.map((o) => killed(o.child)));
      expect(outcomes.map((o) => o.result).sort()).toEqual(['held', 'refused']);
    }
  });
});

/** A process of its own that tries to open a store on the folder: 'held' (kept until killed) or 'refused'. */
function openInChild(dataDir: string, at: number): Promise<{ child: ChildProcess; result: string }> {
  // the lock alone, so that the two attempts meet within microseconds rather than after a store's set-up
  const script = `const { lockDataDir } = require(${JSON.stringify(LOCK_DIST)}); while (Date.now() < ${at}) {} try { globalThis.kept = lockDataDir(${JSON.stringify(dataDir)}); process.stdout.write('held\\n'); } catch (e) { process.stdout.write(e.code === 'DATA_DIR_IN_USE' ? 'refused\\n' : 'failed ' + String(e) + '\\n'); } setInterval(() => undefined, 1000);`;
  const child = spawn(process.execPath, ['-e', `${script} setInterval(() => undefined, 1000);`], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((done) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) done({ child, result: out.trim() });
    });
  });
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.on('exit', () => done());
    child.kill('SIGKILL');
  });
}
