import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { openDatabase } from './open-store';
import type { Database } from './schema';
import { GroupCommit } from './transactions';

describe('GroupCommit on SQLite', () => {
  let dir: string;
  let db: Kysely<Database>;
  let tx: GroupCommit;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bw-group-commit-'));
    db = (await openDatabase({ dataDir: dir })).db;
    tx = new GroupCommit(db);
  });

  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const addBrand = (id: string) => tx.run((trx) => trx.insertInto('brands').values({ id, name: id, created_ms: 1 }).execute());
  const brandIds = async () => (await db.selectFrom('brands').select('id').orderBy('id').execute()).map((r) => r.id);

  it('commits units that arrive together in one transaction, and rolls back a failing one alone', async () => {
    const transactions = jest.spyOn(db, 'transaction');
    const failing = tx.run(async (trx) => {
      await trx.insertInto('brands').values({ id: 'half-done', name: 'x', created_ms: 1 }).execute();
      throw new Error('refused');
    });
    const results = await Promise.allSettled([addBrand('a'), failing, addBrand('b'), addBrand('a')]);
    expect(transactions).toHaveBeenCalledTimes(1);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('refused'));
    expect(String((results[3] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect(await brandIds()).toEqual(['a', 'b']);
  });

  it('resolves each unit with its own value, in order, and keeps working after a failure', async () => {
    await expect(tx.run(() => Promise.reject(new Error('alone')))).rejects.toThrow('alone');
    const values = await Promise.all([1, 2, 3].map((n) => tx.run(async (trx) => {
      await trx.insertInto('brands').values({ id: `b${n}`, name: 'x', created_ms: n }).execute();
      return (await trx.selectFrom('brands').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
    })));
    expect(values).toEqual([1, 2, 3]);
    await addBrand('later');
    expect(await brandIds()).toEqual(['b1', 'b2', 'b3', 'later']);
  });
});
