import { isoWithOffset } from '@brandwire/domain';
import { ZonedTimes } from './zoned-times';

describe('ZonedTimes', () => {
  const samples = (fromIso: string, stepMs: number, count: number): number[] => Array.from({ length: count }, (_, i) => Date.parse(fromIso) + i * stepMs);

  it.each([
    ['Asia/Seoul', '2026-01-01T00:00:00Z'],
    ['Europe/Berlin', '2026-03-29T00:30:00Z'], // 02:00 local jumps to 03:00
    ['Europe/Berlin', '2026-10-25T00:30:00Z'], // 03:00 local falls back to 02:00
    ['America/St_Johns', '2026-11-01T03:00:00Z'], // a half-hour zone falling back
    ['Australia/Lord_Howe', '2026-04-05T14:00:00Z'], // a 30-minute daylight-saving shift
    ['UTC', '2026-06-01T00:00:00Z'],
  ])('formats every time exactly as isoWithOffset does in %s around %s', (zone, from) => {
    const times = new ZonedTimes(zone);
    for (const ms of samples(from, 61_111, 300)) expect(times.iso(ms)).toBe(isoWithOffset(ms, zone));
  });

  it('keeps local mean times with seconds in their offset', () => {
    const times = new ZonedTimes('Asia/Seoul');
    const ms = Date.parse('1900-01-01T00:00:00Z');
    expect(times.iso(ms)).toBe(isoWithOffset(ms, 'Asia/Seoul'));
  });
});
