/**
 * Fills the journal of one channel with many items, straight into the SQLite file with better-sqlite3
 * (one transaction, prepared statements), keeping channel_seq, rooms and conversations consistent with
 * what the service itself would have written. The schema must exist already (the service made it) and
 * the service must not be running.
 *
 * Shape: `users` customers (`cust-00000`...), items interleaved over time in seq order as real traffic
 * would be; each consultation starts with a `reference`, then customer `message`s and `agent` replies
 * (with serials), and ends with an `ended` after 20-80 items; the next item of that customer starts a
 * new consultation. One customer, HOT_USER, gets `hotItems` items: the room the retrieval load reads.
 * Where the schema has the `bubbles` table (what delete reads), each agent item gets its bubble row too.
 * The signal outbox is left empty (a history without a connected webhook).
 */
import { join } from 'node:path';
import { sqliteDriver } from './sqlite-driver.mjs';
import { random as mulberry32 } from './consultations.mjs';

export const HOT_USER = 'cust-hot';
export const SQLITE_FILE = 'brandwire.db';

const DAY_MS = 24 * 60 * 60 * 1000;
const CUSTOMER_TEXTS = [
  'Hi, is my order shipped yet?',
  'I would like to change the delivery address please',
  '배송이 언제 도착하나요?',
  'The size does not fit, can I exchange it for a larger one?',
  'Thanks!',
  'Where can I find the invoice for order 20261121-0042?',
  '환불 요청드립니다. 주문번호 1234-5678',
  'ok',
];
const AGENT_TEXTS = [
  'Yes, it left our warehouse today and should arrive tomorrow.',
  'Sure, I have updated the address for you.',
  '안녕하세요, 고객님. 확인 후 바로 안내드리겠습니다.',
  'Of course. I have started an exchange; a courier will pick the parcel up on Monday.',
  'You are welcome! Anything else I can help with?',
  'The invoice is in My Page > Orders > Details.',
];


/**
 * @param {object} o
 * @param {string} o.repoRoot   where node_modules/better-sqlite3 is
 * @param {string} o.dataDir    the service's BRANDWIRE_DATA_DIR
 * @param {string} o.channelKey
 * @param {number} o.items      journal items to add
 * @param {number} o.users      customers they are spread over (HOT_USER included)
 * @param {number} o.hotItems   items of HOT_USER
 * @param {number} [o.nowMs]    the newest item's time; the items span the 30 days before it
 */
export function prefillJournal({ repoRoot, dataDir, channelKey, items, users, hotItems, nowMs = Date.now() }) {
  const Database = sqliteDriver(repoRoot);
  const db = new Database(join(dataDir, SQLITE_FILE));
  const started = process.hrtime.bigint();
  try {
    // bulk-load settings for this connection only; the file goes back to WAL (what the service uses) below
    db.pragma('journal_mode = DELETE');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');

    const seqRow = db.prepare('SELECT last_seq FROM channel_seq WHERE channel_key = ?').get(channelKey);
    if (!seqRow) throw new Error(`channel ${channelKey} has no channel_seq row: did the service create it?`);
    const existing = db.prepare('SELECT COUNT(*) AS n FROM journal WHERE channel_key = ?').get(channelKey).n;
    if (existing > 0) throw new Error(`channel ${channelKey} already has ${existing} journal items`);
    const firstSeq = Number(seqRow.last_seq) + 1;

    const insertJournal = db.prepare(
      'INSERT INTO journal (channel_key, seq, user_key, session_id, kind, text, ts_ms, serial, deleted, by_bot, meta) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?)',
    );
    const insertRoom = db.prepare(
      `INSERT INTO rooms (channel_key, user_key, session_id, state, last_seq, last_text, last_kind, last_ts_ms, count, end_requested_session)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
    );
    const insertConversation = db.prepare(
      `INSERT INTO conversations (channel_key, conv_id, user_key, session_id, first_seq, last_seq, last_text, last_ts_ms, count, ended)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const updateSeq = db.prepare('UPDATE channel_seq SET last_seq = ? WHERE channel_key = ?');
    const hasBubbles = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'bubbles'").get() !== undefined;
    const insertBubble = hasBubbles
      ? db.prepare("INSERT INTO bubbles (channel_key, serial, user_key, session_id, kind, text, sent_ms, journal_seq, group_index, deleted_ms) VALUES (?, ?, ?, ?, 'text', ?, ?, ?, 0, NULL)")
      : undefined;

    const random = mulberry32(20261121);
    const userKeys = Array.from({ length: users - 1 }, (_, i) => `cust-${String(i).padStart(5, '0')}`);
    /** per customer: the room and the consultation in progress */
    const state = new Map();
    const conversations = [];
    const hotEvery = items / hotItems;
    let nextHot = hotEvery / 2;
    let sessionNo = 90_000_000;
    let serialCounter = 0;
    const spanMs = 30 * DAY_MS;
    const firstMs = nowMs - spanMs;

    const fill = db.transaction(() => {
      for (let i = 0; i < items; i += 1) {
        const seq = firstSeq + i;
        const ts = Math.floor(firstMs + (spanMs * i) / items);
        let userKey;
        if (i >= nextHot) {
          userKey = HOT_USER;
          nextHot += hotEvery;
        } else {
          userKey = userKeys[Math.floor(random() * userKeys.length)];
        }
        let s = state.get(userKey);
        if (!s) {
          s = { session: null, count: 0, last: null };
          state.set(userKey, s);
        }
        let kind;
        let text;
        let serial = null;
        let meta = null;
        if (!s.session) {
          sessionNo += 1;
          s.session = { id: String(sessionNo), firstSeq: seq, count: 0, length: 20 + Math.floor(random() * 61) };
          kind = 'reference';
          text = 'Consultation started';
          meta = '{"reference":{},"lastReference":null,"appUserId":null}';
        } else if (s.session.count + 1 >= s.session.length) {
          kind = 'ended';
          text = 'Consultation ended by the agent';
          meta = '{"reason":"agent_end"}';
        } else if (random() < 0.5) {
          kind = 'message';
          text = CUSTOMER_TEXTS[Math.floor(random() * CUSTOMER_TEXTS.length)];
        } else {
          kind = 'agent';
          text = AGENT_TEXTS[Math.floor(random() * AGENT_TEXTS.length)];
          serialCounter = (serialCounter + 1) % 1000;
          serial = `bw-${String(ts).padStart(13, '0')}${String(serialCounter).padStart(3, '0')}-${Math.floor(random() * 36 ** 6).toString(36).padStart(6, '0')}`;
        }
        const session = s.session;
        insertJournal.run(channelKey, seq, userKey, session.id, kind, text, ts, serial, meta);
        if (serial && insertBubble) insertBubble.run(channelKey, serial, userKey, session.id, text, ts, seq);
        session.count += 1;
        session.lastSeq = seq;
        session.lastText = text;
        session.lastTs = ts;
        s.count += 1;
        s.last = { seq, text, kind, ts, sessionId: session.id };
        if (kind === 'ended') {
          conversations.push({ userKey, ...session, ended: 1 });
          s.session = null;
        }
      }
      for (const [userKey, s] of state) {
        if (s.session) conversations.push({ userKey, ...s.session, ended: 0 });
        const roomState = s.session ? 'in_progress' : 'ended';
        insertRoom.run(channelKey, userKey, s.last.sessionId, roomState, s.last.seq, s.last.text, s.last.kind, s.last.ts, s.count);
      }
      for (const c of conversations) {
        insertConversation.run(channelKey, c.id, c.userKey, c.id, c.firstSeq, c.lastSeq, c.lastText, c.lastTs, c.count, c.ended);
      }
      updateSeq.run(firstSeq + items - 1, channelKey);
    });
    fill();
    db.pragma('journal_mode = WAL');

    const hot = state.get(HOT_USER);
    return {
      items,
      users: state.size,
      conversations: conversations.length,
      lastSeq: firstSeq + items - 1,
      hotUser: HOT_USER,
      hotItems: hot ? hot.count : 0,
      seconds: Math.round(Number(process.hrtime.bigint() - started) / 1e7) / 100,
    };
  } finally {
    db.close();
  }
}
