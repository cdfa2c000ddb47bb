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

  constructor(private readonly post: (batch: T[]) => void) {}

  push(message: T): void {
    this.queue.push(message);
    if (this.queue.length === 1) setImmediate(() => this.flush());
  }

  flush(): void {
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.post(batch);
  }
}

export function toThreadError(error: unknown): ThreadError {
  if (error instanceof Error) return { name: error.name, message: error.message, ...(error.stack === undefined ? {} : { stack: error.stack }) };
  return { name: 'Error', message: String(error) };
}

export function fromThreadError(error: ThreadError): Error {
  const rebuilt = new Error(error.message);
  rebuilt.name = error.name;
  if (error.stack !== undefined) rebuilt.stack = error.stack;
  return rebuilt;
}
