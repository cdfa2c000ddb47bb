/**
 * Realistic consultations for the knowledge-graph benchmark: customer questions built from eight topics (English,
 * and Korean nouns with the particles they carry in chat, which make distinct tokens: about 480 topic words), 400
 * product names shared by all topics and an order number; 5% of customer lines are photos on the attachment host;
 * agents and a bot answer. Deterministic: every run makes the same data.
 */
export const ATTACHMENT_HOST = 'cdn.brandwire.test';
export const LINES_PER_CONSULTATION = 10;

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
export const QUERIES = ['refund card', 'parcel lost', '환불', 'coupon expired', 'password reset', 'payment declined', 'restock', 'gift wrapping', '배송이 도착', 'exchange size'];

/** Deterministic pseudo-random numbers (mulberry32). */
export function random(seed) {
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
  if (rnd() < 0.05) return `[photo] https://${ATTACHMENT_HOST}/p/${n}.jpg ${pick(rnd, topic)} ${pick(rnd, PRODUCTS)}`;
  return `${pick(rnd, OPENERS)} my ${pick(rnd, PRODUCTS)} ${pick(rnd, topic)} ${pick(rnd, topic)}, order ${100_000 + n} ${pick(rnd, topic)}?`;
}

/**
 * Consultation number `c`: its channel index (of `channels`), customer, and 10 turns as journal kinds: a
 * `reference` (consultation started), customer `message`s and `agent` answers (20% of them by the bot), and an
 * `ended` line for 90% of consultations.
 */
export function consultation(rnd, c, channels) {
  const topic = pick(rnd, TOPICS);
  const ended = rnd() < 0.9;
  const turns = [{ kind: 'reference', text: 'Consultation started', byBot: false }];
  for (let t = 1; t < LINES_PER_CONSULTATION; t++) {
    if (t === LINES_PER_CONSULTATION - 1 && ended) turns.push({ kind: 'ended', text: 'Consultation ended by the agent', byBot: false });
    else if (t % 2 === 1 || rnd() < 0.2) turns.push({ kind: 'message', text: customerText(rnd, topic, c * 10 + t), byBot: false });
    else turns.push({ kind: 'agent', text: `${pick(rnd, ANSWERS)} about your ${pick(rnd, topic)}`, byBot: rnd() < 0.2 });
  }
  return { channel: c % channels, userKey: `user-${Math.floor(c / channels) % 20_000}`, sessionId: String(90_000_000 + c), ended, turns };
}

const ROLE = { reference: 'system', ended: 'system', message: 'customer' };

/** The same consultations as `GET /api/agent/conversation` would give them, generated in memory one at a time. */
export function* inMemoryConversations(count, channelKeys) {
  const rnd = random(42);
  const base = Date.parse('2026-01-01T00:00:00+09:00');
  for (let c = 0; c < count; c++) {
    const conv = consultation(rnd, c, channelKeys.length);
    let at = base + c * 60_000;
    const lines = conv.turns.map((turn) => {
      at += 5_000 + Math.floor(rnd() * 30_000);
      return { role: ROLE[turn.kind] ?? (turn.byBot ? 'bot' : 'agent'), text: turn.text, at: new Date(at).toISOString().replace('Z', '+00:00') };
    });
    yield { ok: true, brand: channelKeys[conv.channel], convId: conv.sessionId, userKey: conv.userKey, seq: c * 10 + 10, sessionId: conv.sessionId, ended: conv.ended, lines };
  }
}
