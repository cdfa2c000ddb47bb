#!/usr/bin/env node
/**
 * Knowledge-graph benchmark: generates consultations in memory (streamed, never all at once), builds the graph
 * with @brandwire/knowledge, prints messages/s and peak RSS, then runs the two-hop query "inquiries similar to X
 * and their responses" 30 times and prints p50.
 *
 *   node tools/bench/knowledge-build.mjs            100,000 consultations, 1,000,000 messages
 *   KB_CONVERSATIONS=10000 node tools/bench/...     smaller run (10 messages per consultation on average)
 *   KB_KEEP=1                                       keep the database folder (printed)
 *   KB_BATCH=<messages> KB_POOL_MB=<MiB>            build batch size and Kuzu buffer pool (library defaults otherwise)
 *
 * Targets: >= 20,000 messages/s end to end, peak RSS <= 1 GiB, two-hop p50 <= 50 ms.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CONVERSATIONS = Number(process.env.KB_CONVERSATIONS ?? 100_000);
const MESSAGES = CONVERSATIONS * 10;
const HOST = 'cdn.brandwire.test';
const RUNS = 30;

execFileSync(join(repoRoot, 'node_modules/.bin/tsc'), ['-b', 'libs/knowledge/tsconfig.lib.json'], { cwd: repoRoot, stdio: 'inherit' });
const { KnowledgeGraph } = createRequire(import.meta.url)(join(repoRoot, 'libs/knowledge/dist/index.js'));

// Eight consultation topics, each with its own words (English, and Korean nouns with the particles they carry in
// chat, which make distinct tokens: about 480 topic words), plus 400 product names shared by all and an order number.
const TOPIC_WORDS = [
  'parcel delivery arrive tracking courier shipped late lost address 배송 택배 도착 운송장',
  'refund money card cancel cancelled charge return account 환불 취소 카드 입금',
  'exchange size small large colour fit swap wrong 교환 사이즈 색상 반품',
  'coupon discount code expired voucher points promotion sale 쿠폰 할인 적립금 이벤트',
  'login password account locked email verify reset signup 로그인 비밀번호 계정 인증',
  'payment failed charged twice declined bank transfer invoice 결제 오류 이중결제 계좌',
  'stock restock sold out available preorder waitlist notify 재입고 품절 예약 입고',
  'gift wrapping message card bag ribbon present box 선물 포장 메시지 쇼핑백',
];
const PARTICLES = ['', '이', '가', '은', '는', '을', '를', '도', '요'];
const TOPICS = TOPIC_WORDS.map((line) =>
  line.split(' ').flatMap((w) => (/[가-힣]/.test(w) ? PARTICLES.map((p) => w + p) : [w, `${w}s`, `${w}ed`])),
);
const PRODUCTS = Array.from({ length: 400 }, (_, i) => `item${(i * 7919) % 100_000}`);
const OPENERS = ['hi', 'hello', '안녕하세요', 'excuse me', 'quick question', '문의드립니다', ''];
const ANSWERS = ['Let me check that for you', 'We are sorry for the trouble', 'It will be processed within 3 business days', 'Please send us your order number', 'We have sent a new one today', '확인 후 안내드리겠습니다'];
/** Questions for the two-hop query: words an agent would search for. */
const QUERIES = ['refund card', 'parcel lost', '환불', 'coupon expired', 'password reset', 'payment declined', 'restock', 'gift wrapping', '배송이 도착', 'exchange size'];

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (rnd, list) => list[Math.floor(rnd() * list.length)];

function customerText(rnd, topic, n) {
  if (rnd() < 0.05) return `[photo] https://${HOST}/p/${n}.jpg ${pick(rnd, topic)} ${pick(rnd, PRODUCTS)}`;
  return `${pick(rnd, OPENERS)} my ${pick(rnd, PRODUCTS)} ${pick(rnd, topic)} ${pick(rnd, topic)}, order ${100_000 + n} ${pick(rnd, topic)}?`;
}

/** `count` consultations of 10 lines each (customer and agent/bot turns, a system line when ended). */
async function* conversations(count) {
  const rnd = random(42);
  const base = Date.parse('2026-01-01T00:00:00+09:00');
  for (let c = 0; c < count; c++) {
    const topic = pick(rnd, TOPICS);
    const ended = rnd() < 0.9;
    let at = base + c * 60_000;
    const lines = [];
    for (let t = 0; t < 10; t++) {
      at += 5_000 + Math.floor(rnd() * 30_000);
      const iso = new Date(at).toISOString().replace('Z', '+00:00');
      if (t === 9 && ended) lines.push({ role: 'system', text: 'consultation ended', at: iso });
      else if (t % 2 === 0 || rnd() < 0.2) lines.push({ role: 'customer', text: customerText(rnd, topic, c * 10 + t), at: iso });
      else lines.push({ role: rnd() < 0.2 ? 'bot' : 'agent', text: `${pick(rnd, ANSWERS)} about your ${pick(rnd, topic)}`, at: iso });
    }
    yield { brand: `brand-${c % 3}`, convId: `conv-${c}`, userKey: `user-${c % 20_000}`, seq: c * 10 + 10, sessionId: `s-${c}`, ended, lines };
  }
}

function peakRssMb() {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : Math.round(process.memoryUsage().rss / 1048576);
}

// "WHERE score > 0" is always true but matters: Kuzu passes the few FTS hits to the next MATCH as a semi-mask only
// when that side has a filter; without it the MATCH scans every ANSWERED_BY relation (about 7x slower here).
const TWO_HOP = `CALL QUERY_FTS_INDEX('Inquiry', 'inquiry_text', $q, top := 10)
WITH node AS i, score WHERE score > 0
MATCH (i)-[:ANSWERED_BY]->(r:Response)
RETURN i.id AS inquiry, i.text AS asked, r.role AS role, r.text AS answered, score
ORDER BY score DESC LIMIT 20`;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'brandwire-knowledge-bench-'));
  const path = join(dir, 'graph.kuzu');
  console.log(`Node ${process.version}; ${CONVERSATIONS.toLocaleString('en')} consultations, ${MESSAGES.toLocaleString('en')} messages; graph ${path}`);
  const pool = process.env.KB_POOL_MB ? { bufferPoolMb: Number(process.env.KB_POOL_MB) } : {};
  const batch = process.env.KB_BATCH ? { batchMessages: Number(process.env.KB_BATCH) } : {};
  const graph = await KnowledgeGraph.open(path, { holder: 'the knowledge benchmark', ...pool });
  try {
    await graph.install();
    let last = 0;
    const started = performance.now();
    const report = await graph.build(conversations(CONVERSATIONS), {
      attachmentHost: HOST,
      ...batch,
      onProgress: (p) => {
        if (p.phase === 'loading' || p.phase === 'indexing' || p.messages - last >= 200_000) {
          last = p.messages;
          console.log(`  ${p.phase.padEnd(8)} ${p.messages.toLocaleString('en')} messages, ${((performance.now() - started) / 1000).toFixed(1)} s, RSS ${Math.round(process.memoryUsage().rss / 1048576)} MB (peak so far ${peakRssMb()} MB)`);
        }
      },
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(`build: ${report.messages.toLocaleString('en')} messages in ${seconds.toFixed(1)} s = ${Math.round(report.messages / seconds).toLocaleString('en')} messages/s; peak RSS ${peakRssMb()} MB`);
    console.log(`  nodes ${JSON.stringify(report.addedNodes)}\n  relations ${JSON.stringify(report.addedRelations)}`);
    const times = [];
    let rows = 0;
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      const result = await graph.query(TWO_HOP, { q: QUERIES[i % QUERIES.length] });
      times.push(performance.now() - t);
      rows += result.rows.length;
    }
    times.sort((a, b) => a - b);
    const p50 = times[Math.floor(times.length / 2)];
    console.log(`two-hop query x${RUNS}: p50 ${p50.toFixed(1)} ms, min ${times[0].toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms, ${(rows / RUNS).toFixed(1)} rows on average`);
    const t = performance.now();
    const again = await graph.build(conversations(CONVERSATIONS), { attachmentHost: HOST });
    console.log(`re-run of the same input: added ${JSON.stringify(again.addedNodes)} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    console.log(`peak RSS over the whole run ${peakRssMb()} MB`);
  } finally {
    await graph.close();
    if (process.env.KB_KEEP) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
