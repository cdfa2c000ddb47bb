import type { Store } from '@brandwire/store';

/** A keyed send's claim, by the time it was made. */
export interface HeldClaim {
  keyId: string;
  idemKey: string;
  claimedMs: number;
}

/**
 * With several instances sharing PostgreSQL, how often an instance says it still answers the keyed sends it holds,
 * and after how long without that another instance's retry takes such a claim over (see ClaimHolder): a crash
 * leaves its claims to the retries that long, and a live instance's claim is never taken, however long its send
 * waits its turn or for the messenger. The embedded SQLite file has one service, which renews nothing.
 */
export const RENEW_EVERY_MS = 60_000;
export const OTHER_INSTANCE_CUT_OFF_MS = 5 * RENEW_EVERY_MS;

/** Renews the claims this instance holds while it answers them, every RENEW_EVERY_MS; only while it holds any, and only on PostgreSQL. */
export class ClaimRenewals {
  private readonly held = new Set<HeldClaim>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    private readonly everyMs = RENEW_EVERY_MS,
  ) {}

  /** Holds `claim` until the function returned is called. */
  hold(claim: HeldClaim): () => void {
    if (this.store.dialect !== 'postgres') return () => undefined;
    this.held.add(claim);
    this.timer ??= setInterval(() => void this.renew(), this.everyMs).unref();
    return () => {
      this.held.delete(claim);
      if (this.held.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }

  private async renew(): Promise<void> {
    try {
      await this.store.idempotency.renew([...this.held], this.now());
    } catch (error) {
      // the next renewal tries again; a database out of reach for longer lets other instances take the claims over
      process.emitWarning(`keyed sends in progress could not be renewed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
