/**
 * When a failed webhook delivery is tried again: exponential back-off from 1 s, doubling, capped at 10 minutes,
 * with ±20 % jitter, for 72 hours after the signal was made (the contract is at least 24 hours). A delivery that
 * succeeds to the same endpoint makes every waiting signal of the channel due at once, so a receiver that comes
 * back receives the backlog right away, in order.
 */
export const RETRY_BASE_MS = 1_000;
export const RETRY_CAP_MS = 10 * 60 * 1_000;
export const RETRY_PERIOD_MS = 72 * 60 * 60 * 1_000;
export const RETRY_JITTER = 0.2;

/** Delay before attempt `attempt + 1`, after `attempt` (>= 1) failed attempts; `random` is in [0, 1). */
export function retryDelayMs(attempt: number, random: number): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 30));
  const base = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** exponent);
  return Math.round(base * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random));
}

/** Whether a signal made at `createdMs` is past its retry period at `nowMs`. */
export function retryPeriodOver(createdMs: number, nowMs: number): boolean {
  return nowMs - createdMs > RETRY_PERIOD_MS;
}
