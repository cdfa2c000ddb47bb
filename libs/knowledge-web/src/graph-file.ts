import type { KnowledgeGraph } from '@brandwire/knowledge';
import type { KnowledgeBackend } from './backend';
import { graphBackend, toApiError } from './graph-backend';

/**
 * The graph file opened read-only in this process by the first call that needs it, and held until release(),
 * which closes it once no call is using it; a call after that opens it again.
 */
export class GraphFile {
  private opening: Promise<KnowledgeBackend> | undefined;
  private closing: Promise<void> = Promise.resolve();
  private users = 0;
  private released = false;

  constructor(
    private readonly open: () => Promise<KnowledgeGraph>,
    opened?: KnowledgeBackend,
  ) {
    if (opened !== undefined) this.opening = Promise.resolve(opened);
  }

  async use<T>(work: (backend: KnowledgeBackend) => Promise<T>): Promise<T> {
    this.users += 1;
    this.released = false;
    try {
      return await work(await this.backend());
    } finally {
      this.users -= 1;
      if (this.released && this.users === 0) await this.closeNow();
    }
  }

  /** Closes the graph now, or when the calls using it are done. */
  async release(): Promise<void> {
    this.released = true;
    if (this.users === 0) await this.closeNow();
  }

  private backend(): Promise<KnowledgeBackend> {
    if (this.opening !== undefined) return this.opening;
    // a failed close of the graph before is told to the call that closed it, not to this one
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

  private async closeNow(): Promise<void> {
    const opening = this.opening;
    this.opening = undefined;
    this.released = false;
    if (opening === undefined) return;
    // a graph that failed to open has nothing to close
    this.closing = opening.then(
      (backend) => backend.close(),
      () => undefined,
    );
    await this.closing;
  }
}
