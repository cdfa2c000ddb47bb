import { jsonTypeOf, RICH_BUBBLE_TYPES } from './rich-bubble';

describe('rich bubble types', () => {
  it('are the seven of the spec, MSGR_CERT not among them', () => {
    expect(RICH_BUBBLE_TYPES).toEqual(['TEXT', 'IMAGE', 'WIDE', 'ITEM_LIST', 'WIDE_ITEM_LIST', 'CAROUSEL_FEED', 'PERSONAL']);
  });

  it.each([
    ['x', 'a string'],
    [5, 'a number'],
    [true, 'a boolean'],
    [[1], 'a list'],
    [{ a: 1 }, 'an object'],
    [null, 'null'],
  ])('names the JSON type of %j as %s', (value, named) => {
    expect(jsonTypeOf(value)).toBe(named);
  });
});
