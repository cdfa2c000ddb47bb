import { sqliteDriver } from './sqlite-driver';
import { withStatementCache } from './statement-cache';

describe('withStatementCache', () => {
  const open = () => {
    const SqliteDatabase = sqliteDriver();
    const raw = new SqliteDatabase(':memory:');
    raw.exec('create table t (id integer primary key, v text)');
    const prepare = jest.spyOn(raw, 'prepare');
    return { raw, prepare, db: withStatementCache(raw, 2) };
  };

  it('prepares each SQL text once and the statement keeps working', () => {
    const { raw, prepare, db } = open();
    const insert = 'insert into t (v) values (?)';
    db.prepare(insert).run(['a']);
    db.prepare(insert).run(['b']);
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(db.prepare('select v from t order by id').all([])).toEqual([{ v: 'a' }, { v: 'b' }]);
    db.close();
    expect(raw.open).toBe(false);
  });

  it('drops the least recently used statement beyond its capacity', () => {
    const { prepare, db } = open();
    db.prepare('select 1');
    db.prepare('select 2');
    db.prepare('select 1');
    db.prepare('select 3');
    expect(prepare).toHaveBeenCalledTimes(3);
    db.prepare('select 1');
    expect(prepare).toHaveBeenCalledTimes(3);
    db.prepare('select 2');
    expect(prepare).toHaveBeenCalledTimes(4);
    db.close();
  });
});
