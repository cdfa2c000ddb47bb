import { jsonDefect } from './json-content';

describe('jsonDefect', () => {
  it.each([
    ['{"a":1,"__proto__":{"x":1}}', '__proto__'],
    ['{"constructor":{"prototype":{"x":1}}}', 'constructor'],
    ['{"a":{"b":[1,{"prototype":2}]}}', 'a.b.1.prototype'],
  ])('names the path of the forbidden key in %s', (json, path) => {
    expect(jsonDefect(JSON.parse(json))).toEqual({ path, problem: 'forbidden-key' });
  });

  it.each([
    ['{"text":"ab\\ud800c"}', 'text'],
    ['{"a":{"list":["fine","\\udc00"]}}', 'a.list.1'],
    ['{"reference":{"k\\ud83d":1}}', 'reference.k\ud83d'],
  ])('names the path of a string with a lone surrogate in %s', (json, path) => {
    expect(jsonDefect(JSON.parse(json))).toEqual({ path, problem: 'lone-surrogate' });
  });

  it('finds none in ordinary bodies: such words as values or parts of keys, emoji written as surrogate pairs', () => {
    expect(jsonDefect(JSON.parse('{"text":"__proto__","constructorName":"prototype","list":[{"a":null}]}'))).toBeUndefined();
    expect(jsonDefect(JSON.parse('{"text":"\\ud83d\\ude00 ok","list":["\\u00e9"]}'))).toBeUndefined();
    expect(jsonDefect(null)).toBeUndefined();
  });
});
