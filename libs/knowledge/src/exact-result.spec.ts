import { intervalMilliseconds, parseJsonExact } from './exact-result';

describe('parseJsonExact', () => {
  it('keeps integers beyond 2^53 as strings of their digits, everything else as JSON.parse does', () => {
    const text = '[{"a":9007199254740993,"b":-9223372036854775808,"c":9007199254740991,"d":1.5e300,"e":"9007199254740993 \\" x","f":[12345678901234567890]}]';
    expect(parseJsonExact(text)).toEqual([{ a: '9007199254740993', b: '-9223372036854775808', c: 9007199254740991, d: 1.5e300, e: '9007199254740993 " x', f: ['12345678901234567890'] }]);
  });
});

describe('intervalMilliseconds', () => {
  // the texts of Kuzu's JSON writer, and the milliseconds the Node binding gives for the same values
  it.each([
    ['1 day', 86_400_000],
    ['00:00:00', 0],
    ['2 years 3 months 4 days 00:00:00.000005', 70_329_600_000],
    ['-1 days 02:00:00', -79_200_000],
    ['-03:04:05.25', -11_045_250],
    ['10 months', 25_920_000_000],
    ['1 year', 31_104_000_000],
    ['36:00:00.001999', 129_600_001],
    ['-1 days -00:00:00.000001', -86_400_000],
    ['-00:00:00.0015', -1],
  ])('%j -> %j', (text, milliseconds) => {
    expect(intervalMilliseconds(text)).toBe(milliseconds);
  });

  it.each(['', '1 fortnight', 'P1D', '1 day 2'])('leaves %j, which Kuzu does not write, unread', (text) => {
    expect(intervalMilliseconds(text)).toBeUndefined();
  });
});
