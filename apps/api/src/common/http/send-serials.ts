import { AsyncLocalStorage } from 'node:async_hooks';
import { type SerialGenerator, UpstreamCode } from '@brandwire/domain';
import type { UpstreamResult } from '@brandwire/upstream';
import { Inject, Injectable } from '@nestjs/common';
import { SERIALS } from '../../app/tokens';

/** The serials one attempt of a keyed send hands out: first those of an earlier attempt whose outcome is unknown. */
export class SendAttempt {
  private readonly handedOut: string[] = [];

  constructor(readonly earlier: readonly string[]) {}

  take(fresh: () => string): string {
    const serial = this.earlier[this.handedOut.length] ?? fresh();
    this.handedOut.push(serial);
    return serial;
  }

  /** What a retry must send again: every serial this attempt or an earlier one may have delivered. */
  uncertainSerials(): string[] {
    return this.earlier.length >= this.handedOut.length ? [...this.earlier] : [...this.handedOut];
  }
}

/**
 * The serials of sent bubbles. A retry of a keyed send (`Idempotency-Key`) whose earlier attempt got no answer from
 * the messenger sends the same serials again, the messenger's natural idempotency key: its `-504` for a serial
 * already used tells that the earlier attempt was delivered, so nothing reaches the customer twice. The attempt is
 * carried in async context, so the sends deep in a handler need no parameter for it.
 */
@Injectable()
export class SendSerials {
  private readonly attempts = new AsyncLocalStorage<SendAttempt>();

  constructor(@Inject(SERIALS) private readonly generator: SerialGenerator) {}

  next(): string {
    const attempt = this.attempts.getStore();
    return attempt ? attempt.take(() => this.generator.next()) : this.generator.next();
  }

  /**
   * The messenger's answer to a bubble sent with `serial`, read as a success when it refused the serial as used and
   * an earlier attempt of this send had sent it: that attempt was delivered.
   */
  outcome(serial: string, result: UpstreamResult): UpstreamResult {
    const deliveredEarlier = result.code === UpstreamCode.DuplicateSerialNumber && this.attempts.getStore()?.earlier.includes(serial) === true;
    return deliveredEarlier ? { code: UpstreamCode.Ok, message: null } : result;
  }

  within<T>(attempt: SendAttempt, run: () => Promise<T>): Promise<T> {
    return this.attempts.run(attempt, run);
  }
}
