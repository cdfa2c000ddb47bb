import type { StoreOptions } from './open-store';
import type { RepositoryName } from './store';

/** What the storage thread is started with. */
export interface StoreThreadData {
  options: StoreOptions;
  /** one int64: the caller's clock (epoch ms) as of its latest call, the time the store writes */
  clock: SharedArrayBuffer;
}

/** An error as it crosses from the thread (its class stays behind; name, message and stack come along). */
export interface ThreadError {
  name: string;
  message: string;
  stack?: string;
  /** e.g. SQLITE_CONSTRAINT_UNIQUE */
  code?: string;
}

export type StoreCall = { type: 'call'; id: number; repo: RepositoryName; method: string; args: unknown[] };

export type ToStoreThread = StoreCall | { type: 'close' };

export type FromStoreThread =
  | { type: 'ready' }
  | { type: 'failed'; error: ThreadError }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'error'; id: number; error: ThreadError }
  | { type: 'room'; channelKey: string; userKey: string }
  | { type: 'closed' };

/**
 * Messages go out in batches, one post for all of a turn of the event loop: a post costs far more than copying
 * a small message, and under load many calls (and answers) are made in one turn.
 */
export class Outbox<T> {
  private queue: T[] = [];

  /** `uncopyable`: a message that cannot be copied to the other thread, sent alone after its batch failed */
  constructor(
    private readonly post: (batch: T[]) => void,
    private readonly uncopyable: (message: T, error: Error) => void,
  ) {}

  push(message: T): void {
    this.queue.push(message);
    if (this.queue.length === 1) setImmediate(() => this.flush());
  }

  flush(): void {
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    try {
      this.post(batch);
    } catch {
      // one message that cannot be copied must not take the others with it
      for (const message of batch) {
        try {
          this.post([message]);
        } catch (error) {
          this.uncopyable(message, error as Error);
        }
      }
    }
  }
}

export function toThreadError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const described: ThreadError = { name: error.name, message: error.message };
  if (error.stack !== undefined) described.stack = error.stack;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') described.code = code;
  return described;
}

export function fromThreadError(error: ThreadError): Error {
  const rebuilt: Error & { code?: string } = new Error(error.message);
  rebuilt.name = error.name;
  if (error.stack !== undefined) rebuilt.stack = error.stack;
  if (error.code !== undefined) rebuilt.code = error.code;
  return rebuilt;
}
