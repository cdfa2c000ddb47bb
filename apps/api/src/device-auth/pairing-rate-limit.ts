import type { ExecutionContext } from '@nestjs/common';
import type { ThrottlerLimitDetail, ThrottlerModuleOptions } from '@nestjs/throttler';

/**
 * Pairings one client address may start a minute. `brandwire login` starts one; each is a stored row until it
 * expires, so an address that starts more is refused for the rest of the minute. Counted per instance, in memory.
 */
export const PAIRINGS_PER_MINUTE = 20;

export const PAIRING_RATE_LIMIT: ThrottlerModuleOptions = {
  throttlers: [{ ttl: 60_000, limit: PAIRINGS_PER_MINUTE }],
  errorMessage: (_context: ExecutionContext, detail: ThrottlerLimitDetail) =>
    `too many pairings started from this address (at most ${PAIRINGS_PER_MINUTE} a minute): try again in ${Math.max(1, detail.timeToBlockExpire)} s`,
};
