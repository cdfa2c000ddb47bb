import { parseJsonExact } from './exact-result';

describe('parseJsonExact', () => {
  it('keeps integers beyond 2^53 as strings of their digits, everything else as JSON.parse does', () => {
    const text = '[{"a":9007199254740993,"b":-9223372036854775808,"c":9007199254740991,"d":1.5e300,"e":"9007199254740993 \\" x","f":[12345678901234567890]}]';
    expect(parseJsonExact(text)).toEqual([{ a: '9007199254740993', b: '-9223372036854775808', c: 9007199254740991, d: 1.5e300, e: '9007199254740993 " x', f: ['12345678901234567890'] }]);
  });
});
