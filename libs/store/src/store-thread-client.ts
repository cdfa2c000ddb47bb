import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type RoomChangeListener, tellRoomChange } from './journal-repo';
import { type StoreOptions, dialectOf } from './open-store';
import { REPOSITORIES, type RepositoryName, Store } from './store';
import { type FromStoreThread, Outbox, type StoreThreadData, type ThreadError, type ToStoreThread, fromThreadError } from './store-thread-protocol';

// The thread runs compiled JavaScript: next to this file once built, in the package's dist when run from sources.
const THREAD_ENTRY = __filename.endsWith('.ts') ? join(__dirname, '../dist/store-thread.js') : join(__dirname, 'store-thread.js');

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** The service's side of the storage thread: numbered calls and their answers, and the rooms the thread changed. */
class StoreThreadClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly roomListeners = new Set<RoomChangeListener>();
  /** why calls are refused: closed, or the thread failed */
  private stopped: Error | undefined;
  private closing: Promise<void> | undefined;
  private readonly exited: Promise<void>;
  private readonly outbox: Outbox<ToStoreThread>;

  constructor(
    worker: Worker,
    private readonly clock: BigInt64Array,
    private readonly now: () => number,
    onFailure: (error: Error) => void,
  ) {
    this.outbox = new Outbox(
      (batch) => worker.postMessage(batch),
      // a call whose arguments cannot be copied to the thread fails alone
      (message, error) => {
        if (message.type === 'call') this.settle(message.id)?.reject(error);
      },
    );
    worker.on('message', (batch: FromStoreThread[]) => {
      for (const message of batch) this.receive(message);
    });
    let failure: Error | undefined;
    worker.on('error', (error) => {
      failure = new Error(`the storage thread failed: ${error.message}`);
    });
    this.exited = new Promise((resolve) => {
      worker.on('exit', (code) => {
        const unexpected = this.closing === undefined;
        this.stop(failure ?? new Error(`the storage thread stopped (exit code ${code})`));
        if (unexpected) onFailure(this.stopped as Error);
        resolve();
      });
    });
  }

  call(repo: RepositoryName, method: string, args: unknown[]): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const now = this.now();
    if (Number.isFinite(now)) Atomics.store(this.clock, 0, BigInt(Math.round(now)));
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.outbox.push({ type: 'call', id, repo, method, args });
    });
  }

  onRoomChange(listener: RoomChangeListener): () => void {
    this.roomListeners.add(listener);
    return () => this.roomListeners.delete(listener);
  }

  /** Refuses new calls at once; the calls made before are answered, then the store closes and the thread ends. */
  close(): Promise<void> {
    if (this.closing === undefined) {
      this.closing = this.exited;
      if (this.stopped === undefined) {
        this.stopped = new Error('the store is closed');
        this.outbox.push({ type: 'close' });
        this.outbox.flush();
      }
    }
    return this.closing;
  }

  private receive(message: FromStoreThread): void {
    switch (message.type) {
      case 'result':
        this.settle(message.id)?.resolve(message.value);
        return;
      case 'error':
        this.settle(message.id)?.reject(fromThreadError(message.error));
        return;
      case 'room':
        for (const listener of this.roomListeners) tellRoomChange(listener, message.channelKey, message.userKey);
        return;
      case 'closed':
        return;
      case 'ready':
      case 'failed':
        // only as the first message, taken by startThread
        return;
    }
  }

  private settle(id: number): Pending | undefined {
    const pending = this.pending.get(id);
    this.pending.delete(id);
    return pending;
  }

  private stop(reason: Error): void {
    this.stopped ??= reason;
    for (const pending of this.pending.values()) pending.reject(reason);
    this.pending.clear();
  }
}

/** Starts the thread and waits until its store is open (or failed to open: the same error as on this thread). */
function startThread(options: StoreOptions, clock: SharedArrayBuffer): Promise<Worker> {
  if (!existsSync(THREAD_ENTRY)) return Promise.reject(new Error(`${THREAD_ENTRY} is missing: run \`npm run build\``));
  const worker = new Worker(THREAD_ENTRY, { workerData: { options, clock } satisfies StoreThreadData });
  return new Promise((resolve, reject) => {
    const failed = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const exited = (code: number): void => failed(new Error(`the storage thread stopped while opening the store (exit code ${code})`));
    const first = ([message]: FromStoreThread[]): void => {
      cleanup();
      if (message === undefined) return reject(new Error('the storage thread sent an empty message'));
      if (message.type === 'ready') resolve(worker);
      else if (message.type === 'failed') void worker.terminate().then(() => reject(fromThreadError(message.error as ThreadError)));
      else reject(new Error(`the storage thread said ${message.type} before it was ready`));
    };
    const cleanup = (): void => {
      worker.off('message', first);
      worker.off('error', failed);
      worker.off('exit', exited);
    };
    worker.on('message', first);
    worker.on('error', failed);
    worker.on('exit', exited);
  });
}

export interface StoreThreadOptions extends StoreOptions {
  now?: () => number;
  /** called once if the thread ends without being closed (every call is refused from then on) */
  onFailure?: (error: Error) => void;
}

function defaultFailure(error: Error): void {
  process.emitWarning(`the store can no longer be used: ${error.message}`);
}

/**
 * The store run on a thread of its own: the same repositories and answers as `Store.open`, each call sent to the
 * thread and its result (or error: name, message and stack) sent back. Room changes are told on this thread
 * before the answer of the write that made them.
 */
export async function openStoreThread(options: StoreThreadOptions): Promise<Store> {
  const { now, onFailure = defaultFailure, ...storeOptions } = options;
  const clockBuffer = new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT);
  const clock = new BigInt64Array(clockBuffer);
  Atomics.store(clock, 0, BigInt(Math.round((now ?? Date.now)())));
  const client = new StoreThreadClient(await startThread(storeOptions, clockBuffer), clock, now ?? Date.now, onFailure);
  const store: Record<string, unknown> = { dialect: 'sqlite', close: () => client.close() };
  for (const [name, repository] of Object.entries(REPOSITORIES) as Array<[RepositoryName, { prototype: object }]>) {
    const remote: Record<string, unknown> = {};
    for (const method of Object.getOwnPropertyNames(repository.prototype)) {
      if (method !== 'constructor') remote[method] = (...args: unknown[]) => client.call(name, method, args);
    }
    store[name] = remote;
  }
  (store['journal'] as Record<string, unknown>)['onRoomChange'] = (listener: RoomChangeListener) => client.onRoomChange(listener);
  // the repositories' public methods, all of them answered by the thread's store
  return store as unknown as Store;
}

/** The store for a service: on a thread of its own when it is the embedded SQLite file and `thread` is set. */
export function openStore(options: StoreThreadOptions & { thread?: boolean }): Promise<Store> {
  const { thread = false, onFailure, ...rest } = options;
  if (thread && dialectOf(rest) === 'sqlite') return openStoreThread(onFailure ? { ...rest, onFailure } : rest);
  return Store.open(rest);
}
