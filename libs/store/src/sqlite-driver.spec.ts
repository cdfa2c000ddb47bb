import { sqliteDriver } from './sqlite-driver';

describe('sqliteDriver', () => {
  it('picks better-sqlite3 12 below Node 22 and the N-API 13 from Node 22', () => {
    expect(sqliteDriver('20.19.0')).toBe(require('better-sqlite3'));
    expect(sqliteDriver('22.0.0')).toBe(require('better-sqlite3-napi'));
    expect(sqliteDriver('24.21.0')).toBe(require('better-sqlite3-napi'));
  });
});
