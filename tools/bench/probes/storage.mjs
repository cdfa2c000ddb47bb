#!/usr/bin/env node
/**
 * Times the storage layer alone, without HTTP: what one text send and one messages retrieval cost in
 * libs/store (Kysely over better-sqlite3, as the service opens it), next to raw better-sqlite3 with cached
 * prepared statements, with synchronous FULL (the service's setting) and NORMAL, and with a larger page cache.
 *
 *   node tools/bench/probes/storage.mjs [--db <BRANDWIRE_DATA_DIR with the 1M-item database>] [--n 2000]
 *
 * Without --db, the retrieval part fills a fresh database with the same generator as the benchmark.
 * Copies the database first, so the given one is not changed. Run `npm run build` before.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHANNEL, SEED } from '../lib/api-service.mjs';
import { HOT_USER, SQLITE_FILE, prefillJournal } from '../lib/prefill-journal.mjs';
import { sqliteDriver, sqliteDriverVersion } from '../lib/sqlite-driver.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const require = createRequire(join(repoRoot, 'package.json'));
const Database = sqliteDriver(repoRoot);
const { Store } = require(join(repoRoot, 'libs/store/dist/index.js'));

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const N = Number(arg('n', 2000));
const tmp = mkdtempSync(join(tmpdir(), 'brandwire-probe-'));

function timeSync(n, fn) {
  for (let i = 0; i < Math.min(200, n); i += 1) fn(i); // warm-up
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i += 1) fn(i);
  return Number(process.hrtime.bigint() - t0) / 1e6 / n;
}

async function timeAsync(n, fn) {
  for (let i = 0; i < Math.min(200, n); i += 1) await fn(i);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i += 1) await fn(i);
  return Number(process.hrtime.bigint() - t0) / 1e6 / n;
}

const rows = [];
function report(what, ms) {
  rows.push([what, ms]);
  console.log(`${ms.toFixed(3).padStart(9)} ms  ${what}`);
}

/** A database with the schema and the bench channel, made by the store's own migrations. */
async function freshStoreDir(name) {
  const dir = join(tmp, name);
  const store = await Store.open({ dataDir: dir });
  await store.directory.upsertBrand({ id: SEED.brands[0].id, name: 'Bench' });
  await store.directory.upsertChannel({ key: CHANNEL, brandId: SEED.brands[0].id, name: 'Bench Kakao', type: 'kakao', chatbotBuilder: false, planConsultations: 1e9, senderKey: 'f'.repeat(40) });
  return { dir, store };
}

async function sendPath() {
  console.log(`\n-- text send: what the service does after the messenger accepted (getRoom + append), ${N} times --`);
  const { store } = await freshStoreDir('send');
  await store.journal.append(CHANNEL, [{ userKey: 'u1', sessionId: '1', kind: 'reference', text: 'Consultation started', timestampUnixMs: Date.now() }]);
  report(
    'libs/store getRoom + append (Kysely, synchronous=FULL as the service)',
    await timeAsync(N, async (i) => {
      const room = await store.journal.getRoom(CHANNEL, 'u1');
      await store.journal.append(CHANNEL, [{ userKey: 'u1', sessionId: room.sessionId, kind: 'agent', text: `reply ${i}`, timestampUnixMs: Date.now(), serial: `bw-${i}` }]);
    }),
  );
  report('libs/store getRoom alone (Kysely)', await timeAsync(N, () => store.journal.getRoom(CHANNEL, 'u1')));
  await store.close();

  for (const sync of ['FULL', 'NORMAL']) {
    const { dir, store: s } = await freshStoreDir(`raw-${sync}`);
    await s.close();
    const db = new Database(join(dir, SQLITE_FILE));
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${sync}`);
    const seq = db.prepare('UPDATE channel_seq SET last_seq = last_seq + 1 WHERE channel_key = ? RETURNING last_seq');
    const ins = db.prepare("INSERT INTO journal (channel_key, seq, user_key, session_id, kind, text, ts_ms, serial, by_bot, meta) VALUES (?, ?, ?, ?, 'agent', ?, ?, ?, 0, NULL)");
    const room = db.prepare(
      "INSERT INTO rooms (channel_key, user_key, session_id, state, last_seq, last_text, last_kind, last_ts_ms, count) VALUES (?, ?, '1', 'in_progress', ?, ?, 'agent', ?, 1) ON CONFLICT (channel_key, user_key) DO UPDATE SET last_seq = excluded.last_seq, last_text = excluded.last_text, last_kind = excluded.last_kind, last_ts_ms = excluded.last_ts_ms, count = rooms.count + 1",
    );
    const conv = db.prepare(
      "INSERT INTO conversations (channel_key, conv_id, user_key, session_id, first_seq, last_seq, last_text, last_ts_ms, count) VALUES (?, '1', ?, '1', ?, ?, ?, ?, 1) ON CONFLICT (channel_key, conv_id) DO UPDATE SET last_seq = excluded.last_seq, last_text = excluded.last_text, last_ts_ms = excluded.last_ts_ms, count = conversations.count + 1",
    );
    const append = db.transaction((i) => {
      const s2 = seq.get(CHANNEL).last_seq;
      const now = Date.now();
      ins.run(CHANNEL, s2, 'u1', '1', `reply ${i}`, now, `bw-${i}`);
      room.run(CHANNEL, 'u1', s2, `reply ${i}`, now);
      conv.run(CHANNEL, 'u1', s2, s2, `reply ${i}`, now);
    });
    report(`raw better-sqlite3 append transaction, cached statements, synchronous=${sync}`, timeSync(N, append));
    db.close();
  }
  const plain = new Database(join(tmp, 'fsync.db'));
  plain.pragma('journal_mode = WAL');
  plain.pragma('synchronous = FULL');
  plain.exec('CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)');
  const one = plain.prepare('INSERT INTO t (b) VALUES (?)');
  report('one-row commit, synchronous=FULL (the fsync of the WAL)', timeSync(Math.min(N, 500), (i) => one.run(`x${i}`)));
  plain.close();
}

async function retrievalPath() {
  let dir = arg('db', undefined);
  const copy = join(tmp, 'retrieval');
  if (dir) {
    if (!existsSync(join(dir, SQLITE_FILE))) throw new Error(`no ${SQLITE_FILE} in ${dir}`);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(copy, { recursive: true });
    copyFileSync(join(dir, SQLITE_FILE), join(copy, SQLITE_FILE));
    for (const ext of ['-wal', '-shm']) if (existsSync(join(dir, SQLITE_FILE + ext))) copyFileSync(join(dir, SQLITE_FILE + ext), join(copy, SQLITE_FILE + ext));
  } else {
    const { store } = await freshStoreDir('retrieval');
    await store.close();
    console.log('\n(filling 1,000,000 journal items for the retrieval part ...)');
    prefillJournal({ repoRoot, dataDir: join(tmp, 'retrieval'), channelKey: CHANNEL, items: 1_000_000, users: 10_000, hotItems: 1000 });
  }
  dir = copy;
  console.log(`\n-- retrieval: the 100 newest items of room ${HOT_USER} among 1M items, ${N} times --`);
  const store = await Store.open({ dataDir: dir });
  report('libs/store listMessages(max=100) (Kysely, default page cache 2 MB)', await timeAsync(N, () => store.journal.listMessages(CHANNEL, HOT_USER, 100)));
  const items = await store.journal.listMessages(CHANNEL, HOT_USER, 100);
  report('JSON.stringify of the 100 items (response body)', timeSync(N, () => JSON.stringify({ ok: true, messages: items })));
  await store.close();

  const sql = 'SELECT * FROM journal WHERE channel_key = ? AND user_key = ? ORDER BY seq DESC LIMIT ?';
  for (const [label, pragmas] of [
    ['default page cache', []],
    ['cache_size = 64 MB', ['cache_size = -65536']],
    ['mmap_size = 1 GB', ['mmap_size = 1073741824']],
  ]) {
    const db = new Database(join(dir, SQLITE_FILE), { readonly: true });
    for (const p of pragmas) db.pragma(p);
    const stmt = db.prepare(sql);
    report(`raw better-sqlite3, cached statement, ${label}`, timeSync(N, () => stmt.all(CHANNEL, HOT_USER, 100)));
    report(`raw better-sqlite3, prepare on every call (as Kysely does), ${label}`, timeSync(N, () => db.prepare(sql).all(CHANNEL, HOT_USER, 100)));
    db.close();
  }
  const db = new Database(join(dir, SQLITE_FILE), { readonly: true });
  console.log(`\nquery plan: ${db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(CHANNEL, HOT_USER, 100).map((r) => r.detail).join('; ')}`);
  db.close();
}

try {
  console.log(`storage probe - Node ${process.version}, ${sqliteDriverVersion(repoRoot)}, SQLite ${new Database(':memory:').prepare('select sqlite_version() v').get().v}`);
  if (!args.includes('--retrieval-only')) await sendPath();
  if (!args.includes('--send-only')) await retrievalPath();
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
