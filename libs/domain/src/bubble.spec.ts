import {
  DELETE_WINDOW_MS,
  LOOKBACK_DEFAULT_S,
  LOOKBACK_MAX_S,
  LOOKBACK_MIN_S,
  SentBubble,
  checkDeletable,
  findBubbleByText,
  validateLookback,
} from './bubble';

const NOW = Date.UTC(2026, 10, 21, 8);
const HOUR = 3_600_000;

function bubble(overrides: Partial<SentBubble> = {}): SentBubble {
  return {
    serial: 'bw-1763712000000000-aaaaaa',
    kind: 'text',
    text: 'hello',
    sentAtMs: NOW - 60_000,
    groupSerial: null,
    groupIndex: 0,
    deletedAtMs: null,
    ...overrides,
  };
}

describe('spec "States and transitions": sent bubble rows', () => {
  it('sent bubble + delete within 24 hours -> deletable', () => {
    expect(checkDeletable(bubble({ sentAtMs: NOW - HOUR }), NOW)).toEqual({ ok: true });
  });

  it('sent bubble + delete after more than 24 hours -> EXPIRED', () => {
    expect(checkDeletable(bubble({ sentAtMs: NOW - 25 * HOUR }), NOW)).toMatchObject({ ok: false, code: 'EXPIRED' });
  });

  it('deleted + delete -> ALREADY_DELETED with a message that it is already deleted', () => {
    const result = checkDeletable(bubble({ deletedAtMs: NOW - 1000 }), NOW);
    expect(result).toMatchObject({ ok: false, code: 'ALREADY_DELETED' });
    expect(result).toHaveProperty('message', expect.stringContaining('already deleted'));
  });
});

describe('checkDeletable', () => {
  it('has a 24-hour window', () => {
    expect(DELETE_WINDOW_MS).toBe(24 * HOUR);
  });

  it.each([
    ['just sent', 0, true],
    ['exactly 24 h ago', DELETE_WINDOW_MS, true],
    ['24 h + 1 ms ago', DELETE_WINDOW_MS + 1, false],
  ])('%s', (_name, age, deletable) => {
    expect(checkDeletable(bubble({ sentAtMs: NOW - age }), NOW).ok).toBe(deletable);
  });

  it('gives EXPIRED at 24 h + 1 ms', () => {
    expect(checkDeletable(bubble({ sentAtMs: NOW - DELETE_WINDOW_MS - 1 }), NOW)).toMatchObject({
      ok: false,
      code: 'EXPIRED',
    });
  });

  it.each([['text'], ['image'], ['file'], ['rich']] as const)('allows a %s bubble', (kind) => {
    expect(checkDeletable(bubble({ kind }), NOW)).toEqual({ ok: true });
  });

  it('refuses a consent bubble with NOT_DELETABLE', () => {
    expect(checkDeletable(bubble({ kind: 'consent', text: null }), NOW)).toMatchObject({
      ok: false,
      code: 'NOT_DELETABLE',
    });
  });

  it.each<[string, Partial<SentBubble>, string]>([
    ['deleted consent bubble past the window', { kind: 'consent', deletedAtMs: NOW, sentAtMs: NOW - 2 * DELETE_WINDOW_MS }, 'ALREADY_DELETED'],
    ['deleted bubble past the window', { deletedAtMs: NOW, sentAtMs: NOW - 2 * DELETE_WINDOW_MS }, 'ALREADY_DELETED'],
    ['consent bubble past the window', { kind: 'consent', sentAtMs: NOW - 2 * DELETE_WINDOW_MS }, 'NOT_DELETABLE'],
  ])('checks in order: %s -> %s', (_name, overrides, code) => {
    expect(checkDeletable(bubble(overrides), NOW)).toMatchObject({ ok: false, code });
  });
});

describe('validateLookback', () => {
  it('has the limits of the spec', () => {
    expect([LOOKBACK_DEFAULT_S, LOOKBACK_MIN_S, LOOKBACK_MAX_S]).toEqual([180, 10, 86400]);
  });

  it.each([
    [undefined, 180],
    [null, 180],
    [10, 10],
    [180, 180],
    [86400, 86400],
  ])('accepts %p as %i', (value, seconds) => {
    expect(validateLookback(value)).toEqual({ ok: true, seconds });
  });

  it.each([[9], [86401], [0], [-10], [10.5], [Number.NaN], [Number.POSITIVE_INFINITY], ['60'], [''], [true], [{}]])(
    'rejects %p naming withinSeconds and the range',
    (value) => {
      const result = validateLookback(value);
      expect(result.ok).toBe(false);
      expect(result).toHaveProperty('message', expect.stringMatching(/withinSeconds.*10.*86400/));
    },
  );
});

describe('findBubbleByText', () => {
  const LOOKBACK = 180;

  it('finds an exact body match within the lookback', () => {
    const b = bubble();
    expect(findBubbleByText([b], 'hello', NOW, LOOKBACK)).toBe(b);
  });

  it.each([['Hello'], ['hello '], [' hello'], ['hell'], ['']])('does not match %p (exact, case-sensitive, no trim)', (text) => {
    expect(findBubbleByText([bubble()], text, NOW, LOOKBACK)).toBeUndefined();
  });

  it.each([
    ['sent exactly lookback seconds ago', LOOKBACK * 1000, true],
    ['sent lookback seconds + 1 ms ago', LOOKBACK * 1000 + 1, false],
    ['sent now', 0, true],
  ])('%s', (_name, age, found) => {
    expect(findBubbleByText([bubble({ sentAtMs: NOW - age })], 'hello', NOW, LOOKBACK) !== undefined).toBe(found);
  });

  it('finds the most recent match even when it is deleted, never an older one behind it', () => {
    const older = bubble({ serial: 'bw-1763711999000000-aaaaaa', sentAtMs: NOW - 100_000 });
    const deleted = bubble({ serial: 'bw-1763712000000000-bbbbbb', sentAtMs: NOW - 10_000, deletedAtMs: NOW - 5000 });
    expect(findBubbleByText([older, deleted], 'hello', NOW, LOOKBACK)).toBe(deleted);
    expect(findBubbleByText([deleted], 'hello', NOW, LOOKBACK)).toBe(deleted);
  });

  it('picks the most recent of several matches, whatever the input order', () => {
    const a = bubble({ serial: 's-a', sentAtMs: NOW - 90_000 });
    const b = bubble({ serial: 's-b', sentAtMs: NOW - 30_000 });
    const c = bubble({ serial: 's-c', sentAtMs: NOW - 60_000 });
    expect(findBubbleByText([a, b, c], 'hello', NOW, LOOKBACK)).toBe(b);
    expect(findBubbleByText([b, c, a], 'hello', NOW, LOOKBACK)).toBe(b);
  });

  it('breaks a tie on the same ms by the later serial', () => {
    const first = bubble({ serial: 'bw-1763712000000000-zzzzzz' });
    const second = bubble({ serial: 'bw-1763712000000001-aaaaaa' });
    expect(findBubbleByText([second, first], 'hello', NOW, LOOKBACK)).toBe(second);
  });

  it('matches only the first image of a group (the caption is on it)', () => {
    const group = 'bw-1763712000000000-gggggg';
    const first = bubble({ serial: 'g-0', kind: 'image', text: 'caption', groupSerial: group, groupIndex: 0, sentAtMs: NOW - 3000 });
    const second = bubble({ serial: 'g-1', kind: 'image', text: 'caption', groupSerial: group, groupIndex: 1, sentAtMs: NOW - 2000 });
    expect(findBubbleByText([first, second], 'caption', NOW, LOOKBACK)).toBe(first);
    expect(findBubbleByText([second], 'caption', NOW, LOOKBACK)).toBeUndefined();
  });

  it('prefers a deletable match to a more recent consent bubble, and finds a consent bubble when nothing else matches', () => {
    const text = bubble({ serial: 's-text', sentAtMs: NOW - 30_000 });
    const consent = bubble({ serial: 's-consent', kind: 'consent', sentAtMs: NOW - 10_000 });
    expect(findBubbleByText([consent, text], 'hello', NOW, LOOKBACK)).toBe(text);
    expect(findBubbleByText([consent], 'hello', NOW, LOOKBACK)).toBe(consent);
  });

  it('never matches a bubble without text', () => {
    expect(findBubbleByText([bubble({ text: null })], '', NOW, LOOKBACK)).toBeUndefined();
  });

  it('returns undefined for an empty list', () => {
    expect(findBubbleByText([], 'hello', NOW, LOOKBACK)).toBeUndefined();
  });
});
