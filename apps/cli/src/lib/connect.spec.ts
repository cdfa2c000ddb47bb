import { CliError } from './cli-error';
import { requestTimeoutMs } from './connect';

/** The longest wait a Node timer holds (2^31-1 ms), divided by the four times as long that uploads wait. */
const LONGEST = 536_870_911;

function refusalOf(value: string): unknown {
  try {
    requestTimeoutMs({ BRANDWIRE_TIMEOUT_MS: value });
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('requestTimeoutMs (BRANDWIRE_TIMEOUT_MS)', () => {
  it('waits 30 s when unset or empty, else the value given, up to the longest an upload can wait', () => {
    expect(requestTimeoutMs({})).toBe(30_000);
    expect(requestTimeoutMs({ BRANDWIRE_TIMEOUT_MS: '' })).toBe(30_000);
    expect(requestTimeoutMs({ BRANDWIRE_TIMEOUT_MS: '1' })).toBe(1);
    expect(requestTimeoutMs({ BRANDWIRE_TIMEOUT_MS: String(LONGEST) })).toBe(LONGEST);
  });

  it.each(['soon', '0', '-5', '1.5', String(LONGEST + 1), '2147483648', '9007199254740993'])('refuses %j as CONFIG naming the largest value', (value) => {
    expect(() => requestTimeoutMs({ BRANDWIRE_TIMEOUT_MS: value })).toThrow(CliError);
    expect(refusalOf(value)).toMatchObject({
      code: 'CONFIG',
      exit: 1,
      message: `BRANDWIRE_TIMEOUT_MS must be a whole number of milliseconds from 1 to ${LONGEST}, got "${value}"`,
      hint: 'leave it unset to wait 30000 ms',
    });
  });
});
