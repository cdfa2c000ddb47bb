import { ShiftableClock } from './clock';
import { senderKeyOf } from './sender-key';

describe('ShiftableClock', () => {
  it('adds the offset to the base clock and moves forward', () => {
    const clock = new ShiftableClock(0, () => 1_000);
    expect(clock.now()).toBe(1_000);
    clock.advance(500);
    expect(clock.now()).toBe(1_500);
    clock.setOffset(-200);
    expect(clock.now()).toBe(800);
    expect(clock.offsetMs).toBe(-200);
  });

  it('refuses to go back through advance', () => {
    const clock = new ShiftableClock();
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
  });
});

describe('senderKeyOf', () => {
  it('is the sha1 of the channel key in 40 lowercase hex digits', () => {
    expect(senderKeyOf('abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(senderKeyOf('brand-1')).toMatch(/^[0-9a-f]{40}$/);
  });
});
