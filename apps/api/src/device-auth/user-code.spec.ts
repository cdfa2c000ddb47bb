import { displayUserCode, newUserCode, normalizeUserCode } from './user-code';

describe('user codes', () => {
  it('draws eight consonants', () => {
    for (let i = 0; i < 50; i++) expect(newUserCode()).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{8}$/);
  });

  it('draws bytes again instead of folding those above the last full alphabet round', () => {
    const bytes = [255, 250, 240, 0, 1, 2, 3, 4, 5, 6, 7, 19, 20, 21, 22, 23];
    expect(newUserCode((n) => Buffer.from(bytes.slice(0, n)))).toBe('BCDFGHJK');
  });

  it.each([
    ['bcdf-ghjk', 'BCDFGHJK'],
    ['BCDF GHJK', 'BCDFGHJK'],
    ['BCDFGHJK', 'BCDFGHJK'],
    ['BCDF-GHJA', undefined],
    ['BCDF-GHJ', undefined],
    ['', undefined],
  ])('normalizes %j to %j', (input, expected) => {
    expect(normalizeUserCode(input)).toBe(expected);
  });

  it('shows a code as two groups of four', () => {
    expect(displayUserCode('BCDFGHJK')).toBe('BCDF-GHJK');
  });
});
