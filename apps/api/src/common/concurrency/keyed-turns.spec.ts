import { KeyedTurns } from './keyed-turns';

describe('KeyedTurns', () => {
  const later = <T>(value: T, ms: number): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), ms));

  it('runs the tasks of one key one after another, in the order given', async () => {
    const turns = new KeyedTurns();
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`${name} starts`);
      await later(null, ms);
      log.push(`${name} ends`);
      return name;
    };
    const results = await Promise.all([turns.run('k', task('a', 20)), turns.run('k', task('b', 1)), turns.run('k', task('c', 1))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['a starts', 'a ends', 'b starts', 'b ends', 'c starts', 'c ends']);
    expect(turns.busyKeys).toBe(0);
  });

  it('lets other keys run meanwhile, and a failed task does not stop the next one of its key', async () => {
    const turns = new KeyedTurns();
    const log: string[] = [];
    const slow = turns.run('k1', async () => {
      await later(null, 30);
      log.push('k1 first');
      throw new Error('refused');
    });
    const next = turns.run('k1', () => later('k1 second', 0));
    const other = turns.run('k2', async () => {
      log.push('k2');
      return later('k2 done', 0);
    });
    await expect(slow).rejects.toThrow('refused');
    expect(await next).toBe('k1 second');
    expect(await other).toBe('k2 done');
    expect(log).toEqual(['k2', 'k1 first']);
  });
});
