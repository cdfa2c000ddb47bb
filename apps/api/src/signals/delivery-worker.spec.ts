import { retryTime } from './delivery-worker.service';

describe('retryTime', () => {
  it('tells a retry on the sandbox clock (moved 30 days ahead) in wall-clock time', () => {
    const wallNow = Date.parse('2026-11-26T06:24:00.000Z');
    const clockNow = wallNow + 30 * 24 * 3600 * 1000;
    expect(retryTime(clockNow + 1_500, clockNow, wallNow)).toBe('from 2026-11-26T06:24:01.500Z (in 1.5 s)');
  });

  it('says a retry already due is due now', () => {
    expect(retryTime(900, 1_000, Date.parse('2026-11-26T06:24:00.000Z'))).toBe('from 2026-11-26T06:24:00.000Z (in 0.0 s)');
  });
});
