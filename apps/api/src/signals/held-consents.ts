import { Injectable } from '@nestjs/common';

/**
 * The seqs of the consent results PersonalInfoRelay holds in memory for their turn, per channel and customer.
 * The delivery worker stops a customer's signals at the first seq held, so that the customer's later signals
 * never reach the webhook before the consent values (the customer's `seq` order), and goes on once it is released.
 */
@Injectable()
export class HeldConsents {
  private readonly held = new Map<string, Set<number>>();
  private readonly listeners = new Set<(channelKey: string) => void>();

  /** Holds `seq` until the returned release is called (once or more). */
  hold(channelKey: string, userKey: string, seq: number): () => void {
    const key = customerKey(channelKey, userKey);
    const seqs = this.held.get(key) ?? new Set<number>();
    seqs.add(seq);
    this.held.set(key, seqs);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      seqs.delete(seq);
      if (seqs.size === 0 && this.held.get(key) === seqs) this.held.delete(key);
      for (const listener of this.listeners) listener(channelKey);
    };
  }

  /** The lowest seq held for the customer, or undefined when none is. */
  firstHeld(channelKey: string, userKey: string): number | undefined {
    const seqs = this.held.get(customerKey(channelKey, userKey));
    return seqs && seqs.size > 0 ? Math.min(...seqs) : undefined;
  }

  /** Called with the channel each time a held seq is released (delivered, dropped or given up). */
  onReleased(listener: (channelKey: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function customerKey(channelKey: string, userKey: string): string {
  return `${channelKey}\u0000${userKey}`;
}
