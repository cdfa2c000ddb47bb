/**
 * Fills the journals of several channels with whole consultations (tools/bench/lib/consultations.mjs), straight
 * into the SQLite file with better-sqlite3 (one transaction, prepared statements), keeping channel_seq, rooms
 * and conversations as the service itself would have written them. Consultations overlap in time as real
 * traffic does: `concurrent` of them are in progress at once and their items are interleaved in seq order.
 * The schema and the channels must exist (the service made them) and the service must not be running.
 * Bubbles and the signal outbox are left empty (nothing here deletes or delivers).
 */
import { join } from 'node:path';
import { consultation, random } from './consultations.mjs';
import { SQLITE_FILE } from './prefill-journal.mjs';
import { sqliteDriver } from './sqlite-driver.mjs';

const REFERENCE_META = '{"reference":{},"lastReference":null,"appUserId":null}';
const ENDED_META = '{"reason":"agent_end"}';

/**
 * @param {object} o
 * @param {string} o.repoRoot
 * @param {string} o.dataDir        the service's BRANDWIRE_DATA_DIR
 * @param {string[]} o.channelKeys  consultation c goes to channel c % channelKeys.length
 * @param {number} o.consultations
 * @param {number} [o.concurrent]   consultations in progress at once
 * @param {number} [o.startMs]      time of the first item; items are 2 s apart
 */
export function prefillConsultations({ repoRoot, dataDir, channelKeys, consultations, concurrent = 64, startMs = Date.parse('2026-01-01T00:00:00+09:00') }) {
  const Database = sqliteDriver(repoRoot);
  const db = new Database(join(dataDir, SQLITE_FILE));
  const started = process.hrtime.bigint();
  try {
    db.pragma('journal_mode = DELETE');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    const seqOf = db.prepare('SELECT last_seq FROM channel_seq WHERE channel_key = ?');
    const nextSeq = channelKeys.map((key) => {
      const row = seqOf.get(key);
      if (!row) throw new Error(`channel ${key} has no channel_seq row: did the service create it?`);
      return Number(row.last_seq) + 1;
    });
    const insertJournal = db.prepare(
      'INSERT INTO journal (channel_key, seq, user_key, session_id, kind, text, ts_ms, serial, deleted, by_bot, meta) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)',
    );
    const upsertRoom = db.prepare(
      `INSERT INTO rooms (channel_key, user_key, session_id, state, last_seq, last_text, last_kind, last_ts_ms, count, end_requested_session)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
       ON CONFLICT (channel_key, user_key) DO UPDATE SET session_id = excluded.session_id, state = excluded.state, last_seq = excluded.last_seq,
         last_text = excluded.last_text, last_kind = excluded.last_kind, last_ts_ms = excluded.last_ts_ms, count = rooms.count + excluded.count`,
    );
    const insertConversation = db.prepare(
      `INSERT INTO conversations (channel_key, conv_id, user_key, session_id, first_seq, last_seq, last_text, last_ts_ms, count, ended)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const updateSeq = db.prepare('UPDATE channel_seq SET last_seq = ? WHERE channel_key = ?');

    const rnd = random(42);
    const interleave = random(7);
    const slots = [];
    const inProgress = new Set();
    let made = 0;
    let items = 0;
    let serialCounter = 0;
    const start = () => {
      const conv = consultation(rnd, made, channelKeys.length);
      made += 1;
      const customer = `${conv.channel}/${conv.userKey}`;
      // one consultation per customer at a time, as in the service
      if (inProgress.has(customer)) conv.userKey = `${conv.userKey}-${made}`;
      inProgress.add(`${conv.channel}/${conv.userKey}`);
      return { ...conv, next: 0, firstSeq: 0 };
    };
    const fill = db.transaction(() => {
      while (slots.length < concurrent && made < consultations) slots.push(start());
      while (slots.length > 0) {
        const index = Math.floor(interleave() * slots.length);
        const conv = slots[index];
        const turn = conv.turns[conv.next];
        const channelKey = channelKeys[conv.channel];
        const seq = nextSeq[conv.channel]++;
        const ts = startMs + items * 2_000;
        items += 1;
        let serial = null;
        if (turn.kind === 'agent') {
          serialCounter = (serialCounter + 1) % 1000;
          serial = `bw-${String(ts).padStart(13, '0')}${String(serialCounter).padStart(3, '0')}-${seq.toString(36).padStart(6, '0')}`;
        }
        const meta = turn.kind === 'reference' ? REFERENCE_META : turn.kind === 'ended' ? ENDED_META : null;
        insertJournal.run(channelKey, seq, conv.userKey, conv.sessionId, turn.kind, turn.text, ts, serial, turn.byBot ? 1 : 0, meta);
        if (conv.next === 0) conv.firstSeq = seq;
        conv.next += 1;
        const done = conv.next === conv.turns.length;
        const roomState = turn.kind === 'ended' ? 'ended' : 'in_progress';
        upsertRoom.run(channelKey, conv.userKey, conv.sessionId, roomState, seq, turn.text, turn.kind, ts, 1);
        if (done) {
          insertConversation.run(channelKey, conv.sessionId, conv.userKey, conv.sessionId, conv.firstSeq, seq, turn.text, ts, conv.turns.length, conv.ended ? 1 : 0);
          inProgress.delete(`${conv.channel}/${conv.userKey}`);
          if (made < consultations) slots[index] = start();
          else slots.splice(index, 1);
        }
      }
      channelKeys.forEach((key, i) => updateSeq.run(nextSeq[i] - 1, key));
    });
    fill();
    db.pragma('journal_mode = WAL');
    return { consultations: made, items, seconds: Math.round(Number(process.hrtime.bigint() - started) / 1e7) / 100 };
  } finally {
    db.close();
  }
}
