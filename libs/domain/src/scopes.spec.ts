import { SCOPES, Scope, isScope, scopeAllows } from './scopes';

describe('SCOPES', () => {
  it('lists the scopes in increasing order', () => {
    expect(SCOPES).toEqual(['BrandRead', 'BrandWrite', 'Admin']);
  });
});

describe('isScope', () => {
  it.each([['BrandRead'], ['BrandWrite'], ['Admin']])('accepts %s', (value) => {
    expect(isScope(value)).toBe(true);
  });

  it.each([['admin'], ['BrandDelete'], [''], [1], [null], [undefined]])('rejects %p', (value) => {
    expect(isScope(value)).toBe(false);
  });
});

describe('scopeAllows', () => {
  const rows: [Scope, Scope, boolean][] = [
    ['BrandRead', 'BrandRead', true],
    ['BrandRead', 'BrandWrite', false],
    ['BrandRead', 'Admin', false],
    ['BrandWrite', 'BrandRead', true],
    ['BrandWrite', 'BrandWrite', true],
    ['BrandWrite', 'Admin', false],
    ['Admin', 'BrandRead', true],
    ['Admin', 'BrandWrite', true],
    ['Admin', 'Admin', true],
  ];

  it.each(rows)('granted %s, required %s -> %p', (granted, required, allowed) => {
    expect(scopeAllows(granted, required)).toBe(allowed);
  });
});
