import { nestsDeeperThan } from './json-depth';

describe('nestsDeeperThan', () => {
  const nested = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

  it.each([
    ['a scalar', 5, 0, false],
    ['an empty object', {}, 1, false],
    ['three levels at a limit of three', { a: [{ b: 1 }] }, 3, false],
    ['three levels at a limit of two', { a: [{ b: 1 }] }, 2, true],
    ['64 levels at 64', nested(64), 64, false],
    ['65 levels at 64', nested(65), 64, true],
    ['100,000 levels (no recursion)', nested(100_000), 64, true],
  ])('%s', (_, value, max, expected) => {
    expect(nestsDeeperThan(value, max)).toBe(expected);
  });
});
