import { forbiddenKeyPath } from './json-keys';

describe('forbiddenKeyPath', () => {
  it.each([
    ['{"a":1,"__proto__":{"x":1}}', '__proto__'],
    ['{"constructor":{"prototype":{"x":1}}}', 'constructor'],
    ['{"a":{"b":[1,{"prototype":2}]}}', 'a.b.1.prototype'],
  ])('names the path of the key in %s', (json, path) => {
    expect(forbiddenKeyPath(JSON.parse(json))).toBe(path);
  });

  it('finds none in ordinary bodies, also where such words are values or parts of keys', () => {
    expect(forbiddenKeyPath(JSON.parse('{"text":"__proto__","constructorName":"prototype","list":[{"a":null}]}'))).toBeUndefined();
    expect(forbiddenKeyPath(null)).toBeUndefined();
  });
});
