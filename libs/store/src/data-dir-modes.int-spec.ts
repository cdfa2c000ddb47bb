import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from './index';

const modeOf = (path: string): number => statSync(path).mode & 0o777;

describe('who may read a SQLite data folder', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'brandwire-modes-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a data folder made by the store is the owner\'s alone, and so are its database files', async () => {
    const dataDir = join(root, 'new', 'data');
    const store = await Store.open({ dataDir });
    try {
      expect(modeOf(dataDir)).toBe(0o700);
      for (const file of ['brandwire.db', 'brandwire.db-wal', 'brandwire.db-shm']) expect(modeOf(join(dataDir, file))).toBe(0o600);
    } finally {
      await store.close();
    }
  });

  it('in a folder given that others may read, the database files are still the owner\'s alone', async () => {
    const dataDir = join(root, 'shared');
    mkdirSync(dataDir, { mode: 0o755 });
    const store = await Store.open({ dataDir });
    try {
      expect(modeOf(dataDir)).toBe(0o755);
      expect(modeOf(join(dataDir, 'brandwire.db'))).toBe(0o600);
    } finally {
      await store.close();
    }
  });
});
