import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../../config/config';
import { CONFIG } from '../../app/tokens';
import { fail } from '../errors/envelope';
import type { Principal } from './principal';

const WINDOW_SECONDS = 60;

/**
 * The requests one key may make a minute (RATE_LIMIT_PER_KEY), counted by this instance in fixed one-minute
 * windows: a script or an AI agent caught in a loop is stopped before it floods customers or uses up the plan.
 */
@Injectable()
export class KeyRateLimit {
  private readonly limiter: RateLimiterMemory | undefined;

  constructor(@Inject(CONFIG) private readonly config: Config) {
    this.limiter = config.rateLimitPerKey > 0 ? new RateLimiterMemory({ points: config.rateLimitPerKey, duration: WINDOW_SECONDS }) : undefined;
  }

  /** Counts a request made with the key; past the limit, 429 RATE_LIMITED with `Retry-After` set on the response. */
  async count(principal: Principal, response: Response): Promise<void> {
    if (!this.limiter) return;
    try {
      await this.limiter.consume(principal.keyId);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
      response.setHeader('Retry-After', String(seconds));
      throw fail('RATE_LIMITED', `this key has made its ${this.config.rateLimitPerKey} requests of this minute: try again in ${seconds} s`);
    }
  }
}
