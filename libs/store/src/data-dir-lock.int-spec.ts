import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { DataDirInUseError, Store, isDataDirInUse, openStore } from './index';
import { type TestDatabase, sqliteTestDatabase } from './testing';

const STORE_DIST = resolve(__dirname, '../dist/index.js');

/** A process of its own that opens a store on the folder and keeps it until killed. */
function holdInChild(dataDir: string): Promise<ChildProcess> {
  const script = `require(${JSON.stringify(STORE_DIST)}).Store.open({ dataDir: ${JSON.stringify(dataDir)} }).then(() => process.stdout.write('held\\n'), (e) => { process.stderr.write(String(e)); process.exit(3); });`;
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
      if (!thread) expect(refused).toBeInstanceOf(DataDirInUseError);
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
});
