import { must } from '../test-support/must';
import { ShiftableClock } from '../clock';
import { ExpiryHeap } from './expiry-heap';
import { SESSION_LIFETIME_MS, sessionExpiresAt } from '@brandwire/domain';
import { SessionEngine } from './sessions';
import { SandboxState } from './state';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 21, 8, 15, 0); // 08:15 UTC

function setup() {
  const clock = new ShiftableClock(0, () => T0);
  const state = new SandboxState();
  const engine = new SessionEngine(state, clock);
  const channel = state.setChannel('s1', 'kakao', false);
  const customer = state.customer(channel, 'u1');
  const say = (text: string) =>
    engine.customerWrites(customer, [{ type: 'text', contents: [text], bubble: { kind: 'text', text, imageUrl: null } }]);
  return { clock, state, engine, customer, say };
}

describe('sessionExpiresAt', () => {
  it('is 30 days from the next full hour', () => {
    expect(sessionExpiresAt(T0)).toBe(Date.UTC(2026, 10, 21, 9) + SESSION_LIFETIME_MS);
    expect(sessionExpiresAt(Date.UTC(2026, 10, 21, 9))).toBe(Date.UTC(2026, 10, 21, 10) + SESSION_LIFETIME_MS);
  });
});

describe('SessionEngine', () => {
  it('starts a consultation with /reference then /message, and reuses it for the next message', () => {
    const { say } = setup();
    const first = say('hi');
    expect(first.map((e) => e.path)).toEqual(['reference', 'message']);
    expect(must(first[0]).body).toEqual({ user_key: 'u1', sender_key: 's1', session_id: expect.any(String), time: expect.any(Number), app_user_id: null });
    expect(say('again').map((e) => e.path)).toEqual(['message']);
  });

  it('expires on the sweep at the exact expiry time, not 1 ms before', () => {
    const { clock, engine, say, customer } = setup();
    say('hi');
    const at = sessionExpiresAt(T0);
    clock.advance(at - T0 - 1);
    expect(engine.sweep()).toEqual([]);
    clock.advance(1);
    const due = engine.sweep();
    expect(due).toHaveLength(1);
    expect(must(due[0]).events[0]).toMatchObject({ path: 'expired_session', body: { user_key: 'u1' } });
    expect(customer.session).toBeNull();
  });

  it('ends a lapsed session at its expiry instant, however far past it the clock was moved (sweep and lazy check)', () => {
    const swept = setup();
    swept.say('hi');
    const at = sessionExpiresAt(T0);
    swept.clock.advance(60 * 24 * HOUR);
    expect(must(must(swept.engine.sweep()[0]).events[0]).body['time']).toBe(at);
    expect(must(swept.customer.last).endedAt).toBe(at);

    const lazy = setup();
    lazy.say('hi');
    lazy.clock.advance(60 * 24 * HOUR);
    expect(must(lazy.engine.expireIfDue(lazy.customer)[0]).body['time']).toBe(at);
  });

  it('extends the session with each customer message (stale heap entries are skipped)', () => {
    const { clock, engine, say, customer } = setup();
    say('hi');
    clock.advance(10 * 24 * HOUR);
    say('still there');
    clock.advance(sessionExpiresAt(T0) - clock.now());
    expect(engine.sweep()).toEqual([]);
    expect(customer.session).not.toBeNull();
  });

  it('gives the previous session as last_reference, with bot info', () => {
    const { engine, say, customer } = setup();
    engine.customerWrites(customer, [], { extra: 'from-ad' });
    const started = must(customer.session).startedAt;
    const ended = engine.end(customer, 'bot', 'menu');
    expect(ended.events[0]).toMatchObject({ path: 'expired_session', body: { user_key: 'u1' } });
    expect(must(ended.events[0]).body['reason']).toBeUndefined();
    const next = say('back');
    expect(must(next[0]).body['last_reference']).toEqual({ extra: 'from-ad', bot: true, bot_event: 'menu', created_at: started });
  });

  it('never hands out a session id of an earlier start of the sandbox (ids start from the wall clock)', () => {
    const before = new SandboxState(T0);
    const given = Array.from({ length: 999 }, () => before.newSessionId());
    const restarted = new SandboxState(T0 + 1);
    const next = restarted.newSessionId();
    expect(given).not.toContain(next);
    expect(BigInt(next)).toBeGreaterThan(BigInt(given.at(-1) ?? '0'));
    expect(next).toMatch(/^\d+$/);
  });

  it('ending without a session returns no session id and no events', () => {
    const { engine, customer } = setup();
    expect(engine.end(customer, 'agent_end')).toEqual({ events: [] });
  });
});

describe('ExpiryHeap', () => {
  it('pops due items earliest first', () => {
    const heap = new ExpiryHeap<string>();
    for (const [at, v] of [[5, 'e'], [1, 'a'], [3, 'c'], [2, 'b'], [4, 'd']] as const) heap.push(at, v);
    const out: string[] = [];
    for (let v = heap.popDue(4); v; v = heap.popDue(4)) out.push(v);
    expect(out).toEqual(['a', 'b', 'c', 'd']);
    expect(heap.size).toBe(1);
  });
});
