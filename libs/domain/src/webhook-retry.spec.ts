import { RETRY_CAP_MS, RETRY_PERIOD_MS, retryDelayMs, retryPeriodOver } from './webhook-retry';

describe('webhook retry schedule', () => {
  it('doubles from one second without jitter at the middle of the range', () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => retryDelayMs(a, 0.5))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000]);
  });

  it('caps the delay at ten minutes', () => {
    expect(retryDelayMs(20, 0.5)).toBe(RETRY_CAP_MS);
    expect(retryDelayMs(1_000, 0.5)).toBe(RETRY_CAP_MS);
  });

  it('spreads retries by ±20 %', () => {
    expect(retryDelayMs(4, 0)).toBe(6_400);
    expect(retryDelayMs(4, 0.999999)).toBe(9_600);
  });

  it('keeps trying for at least 24 hours (72)', () => {
    expect(RETRY_PERIOD_MS).toBeGreaterThanOrEqual(24 * 3600 * 1000);
    expect(retryPeriodOver(0, RETRY_PERIOD_MS)).toBe(false);
    expect(retryPeriodOver(0, RETRY_PERIOD_MS + 1)).toBe(true);
  });
});
