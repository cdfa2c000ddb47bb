import { SerialGenerator, isSerial, serialTimeMs } from './serial';

/** A generator whose clock reads the given values in turn (the last one repeats). */
function generatorWithClock(times: number[], random: () => number = () => 0): SerialGenerator {
  let i = 0;
  return new SerialGenerator(() => times[Math.min(i++, times.length - 1)], random);
}

const T = 1_763_712_000_123; // 2025-11-21T08:00:00.123Z

describe('SerialGenerator', () => {
  it('makes bw- + 13 digits of ms + 3-digit counter + - + 6 base36 chars', () => {
    const serial = generatorWithClock([T], () => 0.5).next();
    expect(serial).toBe(`bw-${T}000-${Math.floor(0.5 * 36 ** 6).toString(36)}`);
    expect(serial).toMatch(/^bw-\d{16}-[0-9a-z]{6}$/);
    expect(serial.length).toBeLessThanOrEqual(30);
  });

  it('zero-pads the time part to 13 digits', () => {
    expect(generatorWithClock([42]).next()).toBe('bw-0000000000042000-000000');
  });

  it.each([
    [0, '000000'],
    [0.999999999999, 'zzzzzz'],
    [1, 'zzzzzz'],
    [-0.5, '000000'],
  ])('maps random() %p to suffix %s', (r, suffix) => {
    expect(generatorWithClock([T], () => r).next().endsWith(`-${suffix}`)).toBe(true);
  });

  it('counts up within one millisecond and resets on the next', () => {
    const gen = generatorWithClock([T, T, T, T + 1]);
    expect([gen.next(), gen.next(), gen.next(), gen.next()].map((s) => s.slice(3, 19))).toEqual([
      `${T}000`,
      `${T}001`,
      `${T}002`,
      `${T + 1}000`,
    ]);
  });

  it('moves to the next ms when the counter would pass 999', () => {
    const gen = generatorWithClock([T]);
    const serials = Array.from({ length: 1001 }, () => gen.next());
    expect(serials[999].slice(3, 19)).toBe(`${T}999`);
    expect(serials[1000].slice(3, 19)).toBe(`${T + 1}000`);
    expect(serialTimeMs(serials[1000])).toBe(T + 1);
  });

  it('keeps increasing after an overflow while the clock still reads the old ms', () => {
    const gen = generatorWithClock([...Array<number>(1000).fill(T), T, T + 1, T + 2]);
    const serials = Array.from({ length: 1003 }, () => gen.next());
    expect(serials.slice(1000).map((s) => s.slice(3, 19))).toEqual([`${T + 1}000`, `${T + 1}001`, `${T + 2}000`]);
  });

  it('never goes below the last issued ms when the clock goes backwards', () => {
    const gen = generatorWithClock([T, T - 5000, T - 1, T + 1]);
    expect([gen.next(), gen.next(), gen.next(), gen.next()].map((s) => s.slice(3, 19))).toEqual([
      `${T}000`,
      `${T}001`,
      `${T}002`,
      `${T + 1}000`,
    ]);
  });

  it('is strictly increasing in string order over a jittery clock', () => {
    const clock = [T, T, T - 3, T + 2, T + 2, T + 1, T - 100, T + 5, T + 5, T + 4];
    const randoms = [0.9, 0.1, 0.5, 0.99, 0.01, 0.3, 0.7, 0.2, 0.8, 0.4];
    let r = 0;
    const gen = generatorWithClock(clock, () => randoms[r++ % randoms.length]);
    const serials = clock.map(() => gen.next());
    for (let i = 1; i < serials.length; i++) {
      expect(serials[i] > serials[i - 1]).toBe(true);
    }
  });

  it.each([[Number.NaN], [-1], [10_000_000_000_000]])('rejects a clock value of %p', (t) => {
    expect(() => generatorWithClock([t]).next()).toThrow(RangeError);
  });
});

describe('isSerial', () => {
  it.each([
    ['bw-1763712000123000-abc123', true],
    ['bw-0000000000000000-000000', true],
    ['bw-1763712000123000-ABC123', false],
    ['bw-176371200012300-abc123', false],
    ['bw-17637120001230000-abc123', false],
    ['bw-1763712000123000-abc12', false],
    ['bx-1763712000123000-abc123', false],
    [' bw-1763712000123000-abc123', false],
    ['', false],
  ])('%p -> %p', (s, ok) => {
    expect(isSerial(s)).toBe(ok);
  });
});

describe('serialTimeMs', () => {
  it('reads the epoch ms of a serial', () => {
    expect(serialTimeMs(`bw-${T}007-zz0000`)).toBe(T);
  });

  it('round-trips with the generator', () => {
    expect(serialTimeMs(generatorWithClock([T]).next())).toBe(T);
  });

  it('rejects a non-serial with BAD_REQUEST', () => {
    expect(() => serialTimeMs('bw-123-abc')).toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
  });
});
