import type { LoggerService } from '@nestjs/common';

/**
 * A failure that repeats at every poll while its cause lasts (a database that is down) is logged as a warning when
 * it starts, then at most once every `everyMs` while it goes on, and once when the work succeeds again: not a line
 * per poll.
 */
export class RepeatedFailureLog {
  private since: number | undefined;
  private lastLoggedMs = 0;
  private failures = 0;

  constructor(
    private readonly logger: Pick<LoggerService, 'warn'>,
    private readonly what: string,
    private readonly everyMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  failed(error: unknown): void {
    const now = this.now();
    const reason = error instanceof Error ? error.message : String(error);
    this.failures += 1;
    if (this.since === undefined) {
      this.since = now;
      this.lastLoggedMs = now;
      this.logger.warn(`${this.what} failed: ${reason}`);
    } else if (now - this.lastLoggedMs >= this.everyMs) {
      this.lastLoggedMs = now;
      this.logger.warn(`${this.what} still fails (${this.failures} times in ${Math.round((now - this.since) / 1000)} s): ${reason}`);
    }
  }

  succeeded(): void {
    if (this.since === undefined) return;
    this.logger.warn(`${this.what} works again, after ${this.failures} failures in ${Math.round((this.now() - this.since) / 1000)} s`);
    this.since = undefined;
    this.failures = 0;
  }
}
