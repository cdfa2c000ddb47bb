import {
  SESSION_LIFETIME_MS,
  SessionEffect,
  SessionEvent,
  SessionState,
  sendCheck,
  sessionExpiresAt,
  sessionTransition,
} from './session';

describe('spec "States and transitions": session rows', () => {
  it('in progress + POST /api/agent/end -> ended', () => {
    expect(sessionTransition('in_progress', { type: 'agent_end' })).toEqual({ next: 'ended', effects: ['ended'] });
  });

  it('in progress + POST /api/agent/end-with-bot -> ended, hands off to the bot', () => {
    expect(sessionTransition('in_progress', { type: 'end_with_bot' })).toEqual({
      next: 'ended',
      effects: ['ended', 'bot_event'],
    });
  });

  it('in progress + BT quick reply tapped on a chatbot-builder channel -> ended, bot event called', () => {
    expect(sessionTransition('in_progress', { type: 'bt_tap', chatbotBuilder: true })).toEqual({
      next: 'ended',
      effects: ['ended', 'bot_event'],
    });
  });

  it('ended + text, rich or attachment send -> stays ended, -502', () => {
    expect(sendCheck('ended', false)).toEqual({ ok: false, code: '-502' });
  });

  it('ended + customer sends a new message -> new consultation in progress', () => {
    expect(sessionTransition('ended', { type: 'customer_message' })).toEqual({
      next: 'in_progress',
      effects: ['new_consultation'],
    });
  });
});

describe('sessionTransition', () => {
  const rows: [SessionState, SessionEvent, SessionState, SessionEffect[]][] = [
    ['none', { type: 'customer_message' }, 'in_progress', ['new_consultation']],
    ['ended', { type: 'customer_message' }, 'in_progress', ['new_consultation']],
    ['expired', { type: 'customer_message' }, 'in_progress', ['new_consultation']],
    ['in_progress', { type: 'customer_message' }, 'in_progress', []],
    ['in_progress', { type: 'agent_end' }, 'ended', ['ended']],
    ['in_progress', { type: 'end_with_bot' }, 'ended', ['ended', 'bot_event']],
    ['in_progress', { type: 'bt_tap', chatbotBuilder: true }, 'ended', ['ended', 'bot_event']],
    ['in_progress', { type: 'bt_tap', chatbotBuilder: false }, 'in_progress', []],
    ['in_progress', { type: 'block' }, 'ended', ['ended']],
    ['in_progress', { type: 'customer_left' }, 'ended', ['ended']],
    ['in_progress', { type: 'expire' }, 'expired', ['expired']],
  ];

  it.each(rows)('%s + %o -> %s %o', (state, event, next, effects) => {
    expect(sessionTransition(state, event)).toEqual({ next, effects });
  });

  const endingEvents: SessionEvent[] = [
    { type: 'agent_end' },
    { type: 'end_with_bot' },
    { type: 'bt_tap', chatbotBuilder: true },
    { type: 'bt_tap', chatbotBuilder: false },
    { type: 'block' },
    { type: 'customer_left' },
    { type: 'expire' },
  ];
  const idleStates: SessionState[] = ['none', 'ended', 'expired'];
  const idleRows = idleStates.flatMap((state) => endingEvents.map((event): [SessionState, SessionEvent] => [state, event]));

  it.each(idleRows)('%s + %o -> no change, no effects', (state, event) => {
    expect(sessionTransition(state, event)).toEqual({ next: state, effects: [] });
  });

  it('throws on an unknown event (unreachable default)', () => {
    expect(() => sessionTransition('in_progress', { type: 'nope' } as unknown as SessionEvent)).toThrow(
      'Unknown session event',
    );
  });
});

describe('sendCheck', () => {
  it.each<[SessionState, boolean, ReturnType<typeof sendCheck>]>([
    ['in_progress', false, { ok: true }],
    ['none', false, { ok: false, code: '-502' }],
    ['ended', false, { ok: false, code: '-502' }],
    ['expired', false, { ok: false, code: '-502' }],
    ['in_progress', true, { ok: false, code: '-511' }],
    ['none', true, { ok: false, code: '-511' }],
    ['ended', true, { ok: false, code: '-511' }],
    ['expired', true, { ok: false, code: '-511' }],
  ])('%s, blocked %p -> %o', (state, blocked, result) => {
    expect(sendCheck(state, blocked)).toEqual(result);
  });
});

describe('sessionExpiresAt', () => {
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;
  const fullHour = Date.UTC(2026, 10, 21, 8); // 2026-11-21T08:00:00.000Z

  it('is 30 days', () => {
    expect(SESSION_LIFETIME_MS).toBe(30 * DAY);
  });

  it.each([
    ['one ms after a full hour', fullHour + 1, fullHour + HOUR],
    ['mid-hour', fullHour + 25 * 60_000, fullHour + HOUR],
    ['one ms before the next hour', fullHour + HOUR - 1, fullHour + HOUR],
    ['exactly a full hour (goes to the next)', fullHour, fullHour + HOUR],
  ])('%s', (_name, last, roundedUp) => {
    expect(sessionExpiresAt(last)).toBe(roundedUp + 30 * DAY);
  });

  it('gives a UTC full hour', () => {
    expect(new Date(sessionExpiresAt(Date.UTC(2026, 1, 27, 23, 59, 59, 999))).toISOString()).toBe(
      '2026-03-30T00:00:00.000Z',
    );
  });
});
