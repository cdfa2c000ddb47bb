import { listInWords } from './list-in-words';

describe('listInWords', () => {
  it.each<[string[], string]>([
    [[], ''],
    [['TEXT'], 'TEXT'],
    [['TEXT', 'IMAGE'], 'TEXT or IMAGE'],
    [['TEXT', 'IMAGE', 'WIDE'], 'TEXT, IMAGE or WIDE'],
  ])('writes %j as %j', (items, words) => {
    expect(listInWords(items)).toBe(words);
  });
});
