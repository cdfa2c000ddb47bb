import { characterCount, firstCharacters, hasControlCharacter, isLongerThan } from './text-length';

describe('text length in characters', () => {
  const emoji = '\u{1F600}';

  it.each([
    ['', 0],
    ['hello', 5],
    ['안녕하세요', 5],
    [emoji, 1],
    [`a${emoji}b`, 3],
    ['\ud800', 1],
    ['\udc00\ud800', 2],
  ])('counts %j as %i', (text, expected) => {
    expect(characterCount(text)).toBe(expected);
  });

  it('lets 1,000 emoji through a 1,000 character limit, not 1,001', () => {
    expect(isLongerThan(emoji.repeat(1000), 1000)).toBe(false);
    expect(isLongerThan(emoji.repeat(1001), 1000)).toBe(true);
    expect(isLongerThan('x'.repeat(1001), 1000)).toBe(true);
  });

  it('cuts after whole characters', () => {
    expect(firstCharacters(`ab${emoji}${emoji}c`, 3)).toBe(`ab${emoji}`);
    expect(firstCharacters('abc', 5)).toBe('abc');
    expect(firstCharacters(emoji.repeat(3), 2)).toBe(emoji.repeat(2));
  });
});

describe('control characters in an identifier', () => {
  it.each([['\u0000'], ['\t'], ['\n'], ['\u001f'], ['\u007f'], ['\u0080'], ['\u0085'], ['\u009f']])('finds %j', (control) => {
    expect(hasControlCharacter(`a${control}b`)).toBe(true);
  });

  it.each([['u-1001'], ['안녕'], ['a b'], ['\u00a0'], ['\u{1F600}'], ['']])('finds none in %j', (text) => {
    expect(hasControlCharacter(text)).toBe(false);
  });
});
