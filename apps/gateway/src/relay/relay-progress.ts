import { parseSignalCursor } from '@brandwire/domain';

interface Waiter {
  seq: number;
  go: () => void;
}

/**
 * How far the relay of a channel to one target has got (the seq of its cursor), for what else goes to that target
 * about the channel's signals to wait behind it.
 */
export class RelayProgress {
  private seq: number | undefined;
  private ended = false;
  private readonly waiters = new Set<Waiter>();

  /** The relay stands at `cursor`: an event id `<seq>.<part>`, or a channel's end `<seq>`. */
  at(cursor: string): void {
    const parsed = parseSignalCursor(cursor);
    if (parsed === undefined) return;
    this.seq = parsed.seq;
    for (const waiter of this.waiters) if (waiter.seq <= parsed.seq) waiter.go();
  }

  /** The relay goes no further (it stopped, or failed for good): nothing waits for it. */
  end(): void {
    this.ended = true;
    for (const waiter of this.waiters) waiter.go();
  }

  /**
   * Resolves once the relay is done with the signal `seq` (a customer message is its seq's only part), or started
   * past it; also when the relay ended or `stop` aborts.
   */
  async through(seq: number, stop: AbortSignal): Promise<void> {
    if (this.ended || stop.aborted || (this.seq !== undefined && this.seq >= seq)) return;
    await new Promise<void>((resolve) => {
      const waiter: Waiter = {
        seq,
        go: () => {
          this.waiters.delete(waiter);
          stop.removeEventListener('abort', waiter.go);
          resolve();
        },
      };
      this.waiters.add(waiter);
      stop.addEventListener('abort', waiter.go, { once: true });
    });
  }
}
