import { STORAGE_CHECK_EVERY_MS, StorageCheck } from './storage-check';

describe('StorageCheck', () => {
  let now: number;
  let pings: number;
  let answer: () => Promise<void>;
  let check: StorageCheck;

  beforeEach(() => {
    now = 1_000_000;
    pings = 0;
    answer = () => Promise.resolve();
    check = new StorageCheck(
      () => {
        pings += 1;
        return answer();
      },
      () => now,
    );
  });

  it('asks the database at most once per interval, however often it is asked', async () => {
    expect(await check.reachable()).toBe(true);
    now += STORAGE_CHECK_EVERY_MS - 1;
    expect(await check.reachable()).toBe(true);
    expect(pings).toBe(1);
    now += 1;
    expect(await check.reachable()).toBe(true);
    expect(pings).toBe(2);
  });

  it('shares one question among the checks made while it is unanswered', async () => {
    let settle: () => void = () => undefined;
    answer = () => new Promise<void>((resolve) => (settle = resolve));
    const checks = [check.reachable(), check.reachable(), check.reachable()];
    settle();
    expect(await Promise.all(checks)).toEqual([true, true, true]);
    expect(pings).toBe(1);
  });

  it('says unreachable while the database fails, and reachable again once it answers', async () => {
    answer = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    expect(await check.reachable()).toBe(false);
    answer = () => Promise.resolve();
    expect(await check.reachable()).toBe(false);
    now += STORAGE_CHECK_EVERY_MS;
    expect(await check.reachable()).toBe(true);
  });
});
