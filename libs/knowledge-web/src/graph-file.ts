import type { KnowledgeGraph } from '@brandwire/knowledge';
import type { KnowledgeBackend } from './backend';
import { graphBackend, toApiError } from './graph-backend';

/**
 * The graph file opened read-only in this process by the first call that needs it, and held until release(),
 * which closes it once no call is using it, or until `idleMs` pass without a call using it (so a writer, a
 * build, is not kept out by a reader nobody asks); a call after that opens it again.
 */
export class GraphFile {
  private opening: Promise<KnowledgeBackend> | undefined;
  private closing: Promise<void> = Promise.resolve();
  private users = 0;
  private released = false;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly open: () => Promise<KnowledgeGraph>,
    private readonly idleMs: number,
    opened?: KnowledgeBackend,
  ) {
    if (opened !== undefined) {
      this.opening = Promise.resolve(opened);
      this.closeWhenIdle();
    }
  }

  async use<T>(work: (backend: KnowledgeBackend) => Promise<T>): Promise<T> {
    this.users += 1;
    this.released = false;
    this.stopIdleTimer();
    try {
      return await work(await this.backend());
    } finally {
      this.users -= 1;
      if (this.users === 0) {
        if (this.released) await this.closeNow();
        else this.closeWhenIdle();
      }
    }
  }

  /** Closes the graph now, or when the calls using it are done. */
  async release(): Promise<void> {
    this.released = true;
    if (this.users === 0) await this.closeNow();
  }

  private backend(): Promise<KnowledgeBackend> {
    if (this.opening !== undefined) return this.opening;
    // a call arriving while the graph closes opens it again once closed; a failed close is told to the call that closed it, not to this one
    const opening: Promise<KnowledgeBackend> = this.closing
      .catch(() => undefined)
      .then(() => this.open())
      .then(graphBackend, (error: unknown) => {
        // the next call tries again
        if (this.opening === opening) this.opening = undefined;
        throw toApiError(error, 'INTERNAL');
      });
    this.opening = opening;
    return opening;
  }

  private closeWhenIdle(): void {
    this.stopIdleTimer();
    if (this.opening === undefined) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      // nobody waits for this close: a failure to close shows to the next writer as the file still held
      if (this.users === 0) void this.closeNow().catch(() => undefined);
    }, this.idleMs);
    // a process with nothing else to do (its server closed) exits without waiting for it
    this.idleTimer.unref();
  }

  private stopIdleTimer(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  private async closeNow(): Promise<void> {
    this.stopIdleTimer();
    const opening = this.opening;
    this.opening = undefined;
    this.released = false;
    if (opening === undefined) {
      // a close under way (the idle one) is what the caller waits for: the file is free once this returns
      await this.closing.catch(() => undefined);
      return;
    }
    // a graph that failed to open has nothing to close
    this.closing = opening.then(
      (backend) => backend.close(),
      () => undefined,
    );
    await this.closing;
  }
}
