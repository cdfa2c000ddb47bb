import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { RoomChangeListener } from './journal-repo';
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
  private stopped: Error | undefined;
  private onClosed: (() => void) | undefined;
  private readonly outbox: Outbox<ToStoreThread>;

  constructor(
    private readonly worker: Worker,
    private readonly clock: BigInt64Array,
    private readonly now: () => number,
  ) {
    this.outbox = new Outbox((batch) => this.post(batch));
    worker.on('message', (batch: FromStoreThread[]) => {
      for (const message of batch) this.receive(message);
    });
    worker.on('error', (error) => this.stop(new Error(`the storage thread failed: ${error.message}`)));
    worker.on('exit', (code) => {
      this.stop(new Error(`the storage thread stopped (exit code ${code})`));
      this.onClosed?.();
    });
  }

  call(repo: RepositoryName, method: string, args: unknown[]): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    Atomics.store(this.clock, 0, BigInt(Math.round(this.now())));
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.outbox.push({ type: 'call', id, repo, method, args });
    });
  }

  private post(batch: ToStoreThread[]): void {
    try {
      this.worker.postMessage(batch);
    } catch {
      // a call whose arguments cannot be copied to the thread fails alone
      for (const message of batch) {
        try {
          this.worker.postMessage([message]);
        } catch (error) {
          if (message.type === 'call') this.settle(message.id)?.reject(error as Error);
        }
      }
    }
  }

  onRoomChange(listener: RoomChangeListener): () => void {
    this.roomListeners.add(listener);
    return () => this.roomListeners.delete(listener);
  }

  close(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      this.onClosed = resolve;
      this.outbox.push({ type: 'close' });
      this.outbox.flush();
    });
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
        this.stop(new Error('the store is closed'));
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
    for (const pending of this.pending.values()) pending.reject(this.stopped);
    this.pending.clear();
  }
}

function tellRoomChange(listener: RoomChangeListener, channelKey: string, userKey: string): void {
  try {
    listener(channelKey, userKey);
  } catch (error) {
    process.emitWarning(`a room change listener failed: ${error instanceof Error ? error.message : String(error)}`);
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

/**
 * The store run on a thread of its own: the same repositories and answers as `Store.open`, each call sent to the
 * thread and its result (or error: name, message and stack) sent back. Room changes are told on this thread
 * before the answer of the write that made them.
 */
export async function openStoreThread(options: StoreOptions & { now?: () => number }): Promise<Store> {
  const { now, ...storeOptions } = options;
  const clockBuffer = new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT);
  const clock = new BigInt64Array(clockBuffer);
  Atomics.store(clock, 0, BigInt(Math.round((now ?? Date.now)())));
  const client = new StoreThreadClient(await startThread(storeOptions, clockBuffer), clock, now ?? Date.now);
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
export function openStore(options: StoreOptions & { now?: () => number; thread?: boolean }): Promise<Store> {
  const { thread = false, ...rest } = options;
  return thread && dialectOf(rest) === 'sqlite' ? openStoreThread(rest) : Store.open(rest);
}
