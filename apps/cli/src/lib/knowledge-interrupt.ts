import { constants } from 'node:os';
import { CliError } from './cli-error';
import { EXIT } from './exit-codes';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type Signal = (typeof SIGNALS)[number];

/** What the watch needs of `process` (a stand-in in tests). */
export interface SignalSource {
  on(signal: Signal, listener: () => void): unknown;
  off(signal: Signal, listener: () => void): unknown;
  exit(code: number): never;
}

/**
 * Ctrl-C or SIGTERM while `knowledge build` runs: the build reads no further conversation, so its batch is rolled
 * back (or committed, when its copy is running already), the full-text indexes are made whole and the graph is
 * closed before the command fails with INTERRUPTED. A second signal ends the process at once, as the first
 * would have; the next build or install repairs what that leaves.
 */
export class BuildInterruption {
  private received: Signal | undefined;
  /** true once the conversations were cut short (not when the signal came after the last was read) */
  private cut = false;
  private readonly stopError = new Error('the build was interrupted');
  private readonly stopped: Promise<never>;
  private stop: (error: Error) => void = () => undefined;
  private readonly listeners = new Map<Signal, () => void>();

  private constructor(
    private readonly source: SignalSource,
    private readonly notify: (line: string) => void,
  ) {
    this.stopped = new Promise<never>((_, reject) => (this.stop = reject));
    this.stopped.catch(() => undefined);
    for (const signal of SIGNALS) {
      const listener = (): void => this.onSignal(signal);
      this.listeners.set(signal, listener);
      source.on(signal, listener);
    }
  }

  static watch(notify: (line: string) => void, source: SignalSource = process): BuildInterruption {
    return new BuildInterruption(source, notify);
  }

  get signal(): Signal | undefined {
    return this.received;
  }

  /** The conversations, ending in the INTERRUPTED failure at the first signal, also while a page is awaited. */
  async *guard<T>(items: AsyncIterable<T>): AsyncIterable<T> {
    const iterator = items[Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = iterator.next();
        next.catch(() => undefined);
        const item = await Promise.race([next, this.stopped]).catch((error: unknown) => {
          if (error === this.stopError) this.cut = true;
          throw error;
        });
        if (item.done === true) return;
        yield item.value;
      }
    } finally {
      void iterator.return?.()?.catch(() => undefined);
    }
  }

  /** The failure to report once the build has wound down after a signal. */
  failure(): CliError {
    const signal = this.received ?? 'SIGINT';
    const message = this.cut
      ? `The build was interrupted (${signal}): what it copied before stays in the graph, the rest was not loaded`
      : `The build was interrupted (${signal}) after it had read every conversation; it finished first, so nothing is missing`;
    return new CliError('INTERRUPTED', message, EXIT.error, { signal }, 'run `brandwire knowledge build` again to load the rest');
  }

  dispose(): void {
    for (const [signal, listener] of this.listeners) this.source.off(signal, listener);
    this.listeners.clear();
  }

  private onSignal(signal: Signal): void {
    if (this.received !== undefined) {
      this.notify(`${signal} again: stopping at once; the next \`brandwire knowledge build\` or \`install\` repairs the graph.`);
      this.source.exit(128 + constants.signals[signal]);
    }
    this.received = signal;
    this.notify(`${signal}: stopping the build after its current step (again to stop at once).`);
    this.stop(this.stopError);
  }
}
