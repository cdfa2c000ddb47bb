import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { type AddressInfo, type Server, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startBuiltService, stopBuiltService } from '../test-support/built-service';

const MAIN = resolve(__dirname, '../../dist/main.js');

/** Root may write in any folder and listen on any port: run as nobody there, to meet what a user meets. */
const UNPRIVILEGED = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;

/** Whether nobody can run the built service from where this checkout is (not under a folder only root may enter). */
const runsUnprivileged =
  UNPRIVILEGED === undefined ||
  spawnSync(process.execPath, ['-e', `require('node:fs').accessSync(${JSON.stringify(MAIN)}, require('node:fs').constants.R_OK)`], { ...UNPRIVILEGED, stdio: 'ignore' }).status === 0;
const asUser = runsUnprivileged ? it : it.skip;

/** Runs the built service as a user who is not root, to its end: its exit code and everything it printed. */
function runUnprivileged(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env },
    cwd: tmpdir(),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...UNPRIVILEGED,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, output })));
}

/** The first port any user may listen on (Linux; elsewhere the usual 1024). */
function unprivilegedPortStart(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8').trim());
  } catch {
    return 1024;
  }
}

async function takePort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('the service started where it cannot listen', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'brandwire-listen-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('stops with one line naming PORT on a port in use', async () => {
    const taken = await takePort();
    try {
      await expect(startBuiltService({ BRANDWIRE_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(taken.port) })).rejects.toThrow(
        new Error(`service exited with 1:\nbrandwire: cannot listen on 127.0.0.1:${taken.port}: the address is in use (PORT)\n`),
      );
    } finally {
      taken.server.close();
    }
  }, 30_000);

  it('shows the demo keys at the start after a first start on a port in use, and they work', async () => {
    const firstDataDir = join(dataDir, 'first');
    const taken = await takePort();
    try {
      await expect(startBuiltService({ BRANDWIRE_DATA_DIR: firstDataDir, PORT: String(taken.port) })).rejects.toThrow('service exited with 1:');
    } finally {
      taken.server.close();
    }

    const started = await startBuiltService({ BRANDWIRE_DATA_DIR: firstDataDir });
    try {
      expect(started.output()).toContain('These keys are shown only this once');
      for (const [label, name] of [['Admin key', 'demo-admin'], ['BrandWrite key', 'demo-agent']]) {
        const key = new RegExp(`${label}:\\s+(bw_\\S+)`).exec(started.output())?.[1] ?? '';
        const me = await fetch(`${started.url}/api/agent/me`, { headers: { authorization: `Bearer ${key}` } });
        expect([me.status, ((await me.json()) as { name?: string }).name]).toEqual([200, name]);
      }
    } finally {
      expect(await stopBuiltService(started.child)).toBe(0);
    }
  }, 60_000);

  it('stops with one line naming HOST on an address not of this machine', async () => {
    await expect(startBuiltService({ BRANDWIRE_DATA_DIR: dataDir, HOST: '192.0.2.1', PORT: '8080' })).rejects.toThrow(
      new Error(`service exited with 1:\nbrandwire: cannot listen on 192.0.2.1:8080: the address is not one of this machine's (HOST)\n`),
    );
  }, 30_000);

  const privilegedPort = unprivilegedPortStart() > 80 ? 80 : undefined;
  (privilegedPort ? asUser : it.skip)('stops with one line naming PORT on a port its user may not use (skipped where any user may use port 80, or nobody cannot reach the checkout)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'brandwire-privileged-'));
    chmodSync(folder, 0o777);
    try {
      expect(await runUnprivileged({ BRANDWIRE_DATA_DIR: join(folder, 'data'), PORT: String(privilegedPort) })).toEqual({
        code: 1,
        output: `brandwire: cannot listen on 127.0.0.1:${privilegedPort}: this user may not use the port (PORT)\n`,
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('the service started with a data folder it cannot use', () => {
  const root = mkdtempSync(join(tmpdir(), 'brandwire-bad-data-dir-'));
  const file = join(root, 'a-file');
  writeFileSync(file, '');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.each([
    [file, `BRANDWIRE_DATA_DIR=${file} is not a folder (EEXIST)`],
    [join(file, 'data'), `BRANDWIRE_DATA_DIR=${join(file, 'data')} is not a folder: ${file} is a file (ENOTDIR)`],
  ])('BRANDWIRE_DATA_DIR=%s stops the start with one line naming it', async (dataDir, message) => {
    await expect(startBuiltService({ BRANDWIRE_DATA_DIR: dataDir })).rejects.toThrow(new Error(`service exited with 1:\nbrandwire: ${message}\n`));
  }, 30_000);

  it('stops with one line naming the SQLite file when it is not a database', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'brandwire-not-a-db-'));
    writeFileSync(join(dataDir, 'brandwire.db'), 'a text file where the database belongs, longer than the SQLite header of one hundred bytes..........');
    try {
      await expect(startBuiltService({ BRANDWIRE_DATA_DIR: dataDir })).rejects.toThrow(
        new Error(`service exited with 1:\nbrandwire: the SQLite database ${join(dataDir, 'brandwire.db')} cannot be used: file is not a database (SQLITE_NOTADB)\n`),
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);

  asUser("stops with one line naming the SQLite file when it is another user's (skipped when nobody cannot reach the checkout)", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'brandwire-foreign-db-'));
    const dataDir = join(folder, 'data');
    chmodSync(folder, 0o755);
    mkdirSync(dataDir, { mode: 0o700 });
    try {
      await stopBuiltService((await startBuiltService({ BRANDWIRE_DATA_DIR: dataDir })).child);
      if (UNPRIVILEGED) chownSync(dataDir, UNPRIVILEGED.uid, UNPRIVILEGED.gid);
      const run = await runUnprivileged({ BRANDWIRE_DATA_DIR: dataDir });
      expect(run).toEqual({ code: 1, output: expect.stringMatching(new RegExp(`^brandwire: the SQLite database ${join(dataDir, 'brandwire.db')} cannot be used: .* \\(SQLITE_[A-Z_]+\\)\n$`)) });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 30_000);

  asUser("stops with one line naming BRANDWIRE_DATA_DIR when the folder is its user's but read-only (mode 0500; skipped when nobody cannot reach the checkout)", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'brandwire-read-only-'));
    const readOnly = join(folder, 'data');
    chmodSync(folder, 0o755);
    mkdirSync(readOnly, { mode: 0o500 });
    if (UNPRIVILEGED) chownSync(readOnly, UNPRIVILEGED.uid, UNPRIVILEGED.gid);
    try {
      expect(await runUnprivileged({ BRANDWIRE_DATA_DIR: readOnly })).toEqual({
        code: 1,
        output: `brandwire: BRANDWIRE_DATA_DIR=${readOnly} is a folder this service may not write to (EACCES)\n`,
      });
      expect(await runUnprivileged({ BRANDWIRE_DATA_DIR: join(readOnly, 'data') })).toEqual({
        code: 1,
        output: `brandwire: BRANDWIRE_DATA_DIR=${join(readOnly, 'data')} cannot be made: this service may not write to ${readOnly} (EACCES)\n`,
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('the service started with a seed it cannot use', () => {
  const dir = mkdtempSync(join(tmpdir(), 'brandwire-bad-seed-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const KEY = { token: 'a-long-random-token', name: 'ops', scope: 'Admin' };

  it.each([
    [{ brands: [{ id: 'a' }], keys: [{ ...KEY, brands: ['a', 'a'] }] }, 'keys[0].brands lists "a" twice'],
    [{ brands: [{ id: 'a', chanels: [{ key: 'a-kakao', type: 'kakao' }] }] }, 'brands[0].chanels is not a field of a brand (its fields: id, name, channels)'],
    [{ brands: [{ id: 'a' }], kyes: [{ ...KEY, brands: ['a'] }] }, 'kyes is not a field of the seed (its fields: brands, keys)'],
    [{ brands: [{ id: 'a' }], keys: [{ ...KEY, brands: ['b'] }] }, 'keys[0].brands[0] names brand "b", which is neither in the seed nor stored'],
  ])('%j stops the start with one line naming BRANDWIRE_SEED and the JSON path', async (seed, message) => {
    const seedFile = join(dir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(seed));
    await expect(startBuiltService({ BRANDWIRE_DATA_DIR: join(dir, 'data'), BRANDWIRE_SEED: seedFile })).rejects.toThrow(new Error(`service exited with 1:\nbrandwire: BRANDWIRE_SEED=${seedFile}: ${message}\n`));
  }, 30_000);

  it('starts on an empty seed, warning once that it defines no brand', async () => {
    const seedFile = join(dir, 'empty.json');
    writeFileSync(seedFile, '{}');
    const started = await startBuiltService({ BRANDWIRE_DATA_DIR: join(dir, 'empty-data'), BRANDWIRE_SEED: seedFile });
    try {
      expect((await fetch(`${started.url}/healthz`)).status).toBe(200);
      const warning = `the seed ${seedFile} defines no brand, and none is stored: no channel can be used (the demo brand is made only without a seed)`;
      expect(started.output().split(warning).length - 1).toBe(1);
      expect(started.output()).not.toContain('Admin key:');
    } finally {
      expect(await stopBuiltService(started.child)).toBe(0);
    }
  }, 30_000);
});

describe('the service started with a setting that would break it only later', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'brandwire-late-setting-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it.each([
    [{ UPSTREAM_PARTNER_KEY: 'ключ' }, 'UPSTREAM_PARTNER_KEY must be visible ASCII characters (! to ~, spaces only between them), as the X-Partner-Key header carries it'],
    [{ BRANDWIRE_PUBLIC_URL: 'http://127.0.0.1:18474/?x=1' }, 'BRANDWIRE_PUBLIC_URL must be a base URL, without a query (?) or fragment (#), got "http://127.0.0.1:18474/?x=1"'],
    [{ UPSTREAM_URL: 'http://127.0.0.1:18474/#top' }, 'UPSTREAM_URL must be a base URL, without a query (?) or fragment (#), got "http://127.0.0.1:18474/#top"'],
    [{ JSON_BODY_LIMIT: '0.5' }, 'JSON_BODY_LIMIT must be a whole number of bytes, got "0.5"'],
  ])('%j stops the start with one line naming it', async (env, message) => {
    await expect(startBuiltService({ BRANDWIRE_DATA_DIR: dataDir, ...env })).rejects.toThrow(new Error(`service exited with 1:\nbrandwire: ${message}\n`));
  }, 30_000);
});

describe('the data folder of the service', () => {
  const root = mkdtempSync(join(tmpdir(), 'brandwire-data-modes-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('stops the start with one line naming BRANDWIRE_DATA_DIR when every user may write to the folder', async () => {
    const dataDir = join(root, 'shared');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o777);
    await expect(startBuiltService({ BRANDWIRE_DATA_DIR: dataDir })).rejects.toThrow(
      new Error(
        `service exited with 1:\nbrandwire: BRANDWIRE_DATA_DIR=${dataDir} is a folder every user may write to (mode 0777), who could replace the database files: give the service a folder only its user (or its group) may write to (chmod 700 ${dataDir})\n`,
      ),
    );
  }, 30_000);

  it('makes a missing folder the owner\'s alone, and takes one others may read or its group write (a setgid folder shared on purpose)', async () => {
    const made = join(root, 'made', 'data');
    const readable = join(root, 'readable');
    const groupShared = join(root, 'group-shared');
    mkdirSync(readable);
    chmodSync(readable, 0o755);
    mkdirSync(groupShared);
    chmodSync(groupShared, 0o2775);
    for (const dataDir of [made, readable, groupShared]) {
      const started = await startBuiltService({ BRANDWIRE_DATA_DIR: dataDir });
      try {
        expect((await fetch(`${started.url}/healthz`)).status).toBe(200);
      } finally {
        expect(await stopBuiltService(started.child)).toBe(0);
      }
    }
    expect([statSync(made).mode & 0o777, statSync(readable).mode & 0o777, statSync(groupShared).mode & 0o7777]).toEqual([0o700, 0o755, 0o2775]);
  }, 60_000);

  it('stops the start with one line naming BRANDWIRE_DATA_DIR and the error when the folder cannot be made', async () => {
    // as root too: sysfs takes no new folders (EPERM); a user may not write there at all (EACCES)
    await expect(startBuiltService({ BRANDWIRE_DATA_DIR: '/sys/brandwire' })).rejects.toThrow(
      /^service exited with 1:\nbrandwire: BRANDWIRE_DATA_DIR=\/sys\/brandwire cannot be made(: this service may not write to \/sys)? \((EPERM|EACCES|EROFS)\)\n$/,
    );
  }, 30_000);
});
