import { RepeatedFailureLog } from './repeated-failure-log';

describe('RepeatedFailureLog', () => {
  it('warns when a failure starts, then once a minute while it lasts, and once when it ends', () => {
    let now = 0;
    const lines: string[] = [];
    const log = new RepeatedFailureLog({ warn: (line: string) => lines.push(line) }, 'delivery round', 60_000, () => now);
    for (; now < 130_000; now += 250) log.failed(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    log.succeeded();
    log.succeeded();
    expect(lines).toEqual([
      'delivery round failed: connect ECONNREFUSED 127.0.0.1:5432',
      'delivery round still fails (241 times in 60 s): connect ECONNREFUSED 127.0.0.1:5432',
      'delivery round still fails (481 times in 120 s): connect ECONNREFUSED 127.0.0.1:5432',
      'delivery round works again, after 520 failures in 130 s',
    ]);
    log.failed('again');
    expect(lines.at(-1)).toBe('delivery round failed: again');
  });
});
