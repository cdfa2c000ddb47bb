import { colorEnabled, fields, formatIsoTimestamp, formatTimestamp, oneLine, paint } from './output';

describe('text output', () => {
  it('colours only a terminal, never with NO_COLOR or TERM=dumb', () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(colorEnabled({}, {})).toBe(false);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(colorEnabled({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(paint('x', 'bold', true)).toBe('\u001b[1mx\u001b[22m');
    expect(paint('x', 'bold', false)).toBe('x');
  });

  it('writes timestamps with the year and the UTC offset', () => {
    expect(formatTimestamp(Date.UTC(2025, 10, 21, 8, 52, 3), 540)).toBe('2025-11-21 17:52:03 +09:00');
    expect(formatTimestamp(Date.UTC(2025, 0, 1, 2, 0, 0), -300)).toBe('2024-12-31 21:00:00 -05:00');
    expect(formatTimestamp(Date.UTC(2025, 0, 1), 0)).toBe('2025-01-01 00:00:00 +00:00');
    expect(formatIsoTimestamp('2026-11-22T03:23:08.375+09:00', 540)).toBe('2026-11-22 03:23:08 +09:00');
    // the service's times are shown in the local zone, as every other time of the tool
    expect(formatIsoTimestamp('2026-11-22T03:23:08.375+09:00', -300)).toBe('2026-11-21 13:23:08 -05:00');
    expect(formatIsoTimestamp('2026-11-21T18:23:08Z', 0)).toBe('2026-11-21 18:23:08 +00:00');
    expect(formatIsoTimestamp('yesterday')).toBe('yesterday');
  });

  it('keeps table cells on one line and short', () => {
    expect(oneLine('a\nb')).toBe('a ⏎ b');
    expect(oneLine('abcdefghij', 5)).toBe('abcd…');
  });

  it('aligns key: value lines', () => {
    expect(fields([['name', 'agent'], ['endpoint', undefined]], false)).toBe('name:     agent\nendpoint: -');
  });
});
