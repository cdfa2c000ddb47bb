import { Operation, billingDay, decideCharge, isBillable } from './billing';

const OPERATIONS: [Operation, boolean][] = [
  ['send_text', true],
  ['send_rich', true],
  ['send_image', true],
  ['send_attachments', true],
  ['consent_request', true],
  ['delete', false],
  ['end', false],
  ['end_with_bot', false],
  ['block', false],
  ['unblock', false],
  ['upload', false],
  ['lookup', false],
  ['settings', false],
];

describe('isBillable', () => {
  it.each(OPERATIONS)('%s -> %p', (op, billable) => {
    expect(isBillable(op)).toBe(billable);
  });

  it('throws on an unknown operation (unreachable default)', () => {
    expect(() => isBillable('nope' as Operation)).toThrow('Unknown operation: nope');
  });
});

describe('decideCharge', () => {
  it.each(OPERATIONS.filter(([, billable]) => !billable))('%s is free even with the plan used up', (op) => {
    expect(decideCharge({ op, servedToday: false, used: 10, limit: 10 })).toEqual({ kind: 'free' });
  });

  it('is free when the consultation is already served today, even with the plan used up', () => {
    expect(decideCharge({ op: 'send_text', servedToday: true, used: 10, limit: 10 })).toEqual({ kind: 'free' });
  });

  it.each([
    [0, 10, 'charge'],
    [9, 10, 'charge'],
    [10, 10, 'exhausted'],
    [11, 10, 'exhausted'],
    [0, 0, 'exhausted'],
  ])('used %i of %i -> %s', (used, limit, kind) => {
    expect(decideCharge({ op: 'send_rich', servedToday: false, used, limit })).toMatchObject({ kind });
  });

  it('explains an exhausted plan', () => {
    expect(decideCharge({ op: 'consent_request', servedToday: false, used: 5, limit: 5 })).toEqual({
      kind: 'exhausted',
      message: expect.stringMatching(/consultation count is used up.*blocked until the plan is raised/),
    });
  });
});

describe('billingDay', () => {
  it.each([
    [Date.UTC(2026, 10, 21, 14, 59, 59, 999), 'Asia/Seoul', '2026-11-21'],
    [Date.UTC(2026, 10, 21, 15, 0, 0, 0), 'Asia/Seoul', '2026-11-22'],
    [Date.UTC(2026, 10, 21, 15, 0, 0, 0), 'UTC', '2026-11-21'],
    [Date.UTC(2026, 0, 1, 2, 0), 'America/New_York', '2025-12-31'],
    [Date.UTC(2026, 2, 29, 22, 30), 'Europe/Berlin', '2026-03-30'],
    [Date.UTC(2026, 9, 24, 22, 30), 'Europe/Berlin', '2026-10-25'],
    [Date.UTC(2026, 9, 24, 21, 30), 'Europe/Berlin', '2026-10-24'],
  ])('%i in %s -> %s', (ms, zone, day) => {
    expect(billingDay(ms, zone)).toBe(day);
  });

  it('rejects an unknown time zone', () => {
    expect(() => billingDay(0, 'Mars/Olympus')).toThrow(RangeError);
  });
});
