import { JOURNAL_KINDS, JournalKind, LineRole, MAX_MESSAGES_DEFAULT, MAX_MESSAGES_LIMIT, isJournalKind, isoWithOffset, lineRoleOf } from './journal';

describe('JOURNAL_KINDS', () => {
  it('are the kinds of the spec', () => {
    expect(JOURNAL_KINDS).toEqual(['message', 'reference', 'expired', 'agent', 'ended', 'deleted']);
  });

  it.each([['message', true], ['deleted', true], ['personal_info', false], ['', false], [1, false]])(
    'isJournalKind(%p) -> %p',
    (value, ok) => {
      expect(isJournalKind(value)).toBe(ok);
    },
  );
});

describe('message limits', () => {
  it('default 100, at most 300', () => {
    expect([MAX_MESSAGES_DEFAULT, MAX_MESSAGES_LIMIT]).toEqual([100, 300]);
  });
});

describe('lineRoleOf', () => {
  it.each<[JournalKind, boolean, LineRole]>([
    ['message', false, 'customer'],
    ['message', true, 'customer'],
    ['agent', false, 'agent'],
    ['agent', true, 'bot'],
    ['reference', false, 'system'],
    ['ended', false, 'system'],
    ['expired', false, 'system'],
    ['deleted', false, 'system'],
    ['deleted', true, 'system'],
  ])('%s (byBot %p) -> %s', (kind, byBot, role) => {
    expect(lineRoleOf(kind, byBot)).toBe(role);
  });

  it('throws on an unknown kind (unreachable default)', () => {
    expect(() => lineRoleOf('nope' as JournalKind, false)).toThrow('Unknown journal kind: nope');
  });
});

describe('isoWithOffset', () => {
  it.each([
    [Date.UTC(2026, 10, 21, 8, 0, 0, 0), 'Asia/Seoul', '2026-11-21T17:00:00.000+09:00'],
    [Date.UTC(2026, 10, 21, 15, 30, 0, 5), 'Asia/Seoul', '2026-11-22T00:30:00.005+09:00'],
    [Date.UTC(2026, 10, 21, 8, 0, 0, 123), 'UTC', '2026-11-21T08:00:00.123+00:00'],
    [Date.UTC(2026, 10, 21, 8, 0, 0, 0), 'America/New_York', '2026-11-21T03:00:00.000-05:00'],
    [Date.UTC(2026, 6, 1, 8, 0, 0, 0), 'America/New_York', '2026-07-01T04:00:00.000-04:00'],
    [Date.UTC(2026, 10, 21, 8, 0, 0, 0), 'Asia/Kolkata', '2026-11-21T13:30:00.000+05:30'],
    [Date.UTC(2026, 10, 21, 8, 0, 0, 0), 'Asia/Kathmandu', '2026-11-21T13:45:00.000+05:45'],
    // Europe/Berlin around the spring-forward (2026-03-29 01:00 UTC) and fall-back (2026-10-25 01:00 UTC) switches.
    [Date.UTC(2026, 2, 29, 0, 59, 59, 999), 'Europe/Berlin', '2026-03-29T01:59:59.999+01:00'],
    [Date.UTC(2026, 2, 29, 1, 0, 0, 0), 'Europe/Berlin', '2026-03-29T03:00:00.000+02:00'],
    [Date.UTC(2026, 9, 25, 0, 30, 0, 0), 'Europe/Berlin', '2026-10-25T02:30:00.000+02:00'],
    [Date.UTC(2026, 9, 25, 1, 30, 0, 0), 'Europe/Berlin', '2026-10-25T02:30:00.000+01:00'],
  ])('%i in %s -> %s', (ms, zone, iso) => {
    expect(isoWithOffset(ms, zone)).toBe(iso);
  });

  it.each([
    ['Asia/Seoul'],
    ['UTC'],
    ['Europe/Berlin'],
    ['America/St_Johns'],
    ['Pacific/Chatham'],
    ['Australia/Lord_Howe'],
  ])('denotes the same instant in %s', (zone) => {
    const instants = [Date.UTC(2026, 0, 15, 12, 34, 56, 789), Date.UTC(2026, 6, 15, 23, 59, 59, 1), Date.UTC(2026, 9, 25, 1, 0)];
    for (const ms of instants) {
      const iso = isoWithOffset(ms, zone);
      expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/);
      expect(Date.parse(iso)).toBe(ms);
    }
  });

  it('rejects an unknown time zone', () => {
    expect(() => isoWithOffset(0, 'Mars/Olympus')).toThrow(RangeError);
  });

  it('rejects an invalid time', () => {
    expect(() => isoWithOffset(Number.NaN, 'UTC')).toThrow(RangeError);
  });
});
