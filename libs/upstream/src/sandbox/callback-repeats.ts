/** When the sandbox sends a callback again that got no 2xx answer (no answer at all, a timeout or a 5xx). */
export interface RepeatPolicy {
  /** wait before the first repeat; doubled after each one */
  firstDelayMs: number;
  /** the longest wait between two sends */
  maxDelayMs: number;
  /** how long, on the sandbox's clock from the first failed send, a callback is repeated before it is dropped */
  giveUpAfterMs: number;
}

export const DEFAULT_REPEAT_POLICY: RepeatPolicy = {
  firstDelayMs: 1_000,
  maxDelayMs: 60_000,
  giveUpAfterMs: 24 * 3_600_000,
};

/** The wait before repeat number `repeatsDone + 1`: 1 s, 2 s, 4 s, ... up to the cap (with the default policy). */
export function repeatDelayMs(policy: RepeatPolicy, repeatsDone: number): number {
  // the exponent is capped so that a long outage cannot overflow to Infinity
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.min(repeatsDone, 30));
}
