import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { type FromStoreThread, Outbox, type StoreThreadData, type ToStoreThread, toThreadError } from './store-thread-protocol';
import { Store } from './store';

/**
 * The storage thread (started by `openStoreThread`): opens the store here and runs every repository call the
 * service's thread sends it, in the order they arrive, so SQLite's work and the waits for its commits leave
 * the service's event loop.
 */
async function serve(port: MessagePort, data: StoreThreadData): Promise<void> {
  const outbox = new Outbox<FromStoreThread>(
    (batch) => port.postMessage(batch),
    (message, error) => {
      // an answer that cannot be copied back fails its call instead
      if (message.type === 'result') port.postMessage([{ type: 'error', id: message.id, error: toThreadError(error) }]);
    },
  );
  const send = (message: FromStoreThread): void => outbox.push(message);
  const clock = new BigInt64Array(data.clock);
  let store: Store;
  try {
    store = await Store.open({ ...data.options, now: () => Number(Atomics.load(clock, 0)) });
  } catch (error) {
    send({ type: 'failed', error: toThreadError(error) });
    outbox.flush();
    port.close();
    return;
  }
  // told before the write's own answer is sent, so the caller learns of the change first
  store.journal.onRoomChange((channelKey, userKey) => send({ type: 'room', channelKey, userKey }));
  const running = new Set<Promise<void>>();
  port.on('message', (batch: ToStoreThread[]) => {
    for (const message of batch) {
      if (message.type === 'close') {
        // the calls sent before the close are finished (their writes committed) before the store closes
        void Promise.allSettled(running)
          .then(() => store.close())
          .finally(() => {
            send({ type: 'closed' });
            outbox.flush();
            port.close();
          });
        return;
      }
      const { id, repo, method, args } = message;
      const call = run(store, repo, method, args).then(
        (value) => send({ type: 'result', id, value }),
        (error: unknown) => send({ type: 'error', id, error: toThreadError(error) }),
      );
      running.add(call);
      void call.finally(() => running.delete(call));
    }
  });
  send({ type: 'ready' });
}

async function run(store: Store, repo: string, method: string, args: unknown[]): Promise<unknown> {
  const target = (store as unknown as Record<string, Record<string, unknown> | undefined>)[repo];
  const fn = target?.[method];
  if (typeof fn !== 'function') throw new Error(`the store has no ${repo}.${method}`);
  return (fn as (...a: unknown[]) => Promise<unknown>).apply(target, args);
}

if (!parentPort) throw new Error('store-thread.js runs as a worker thread (see openStoreThread)');
void serve(parentPort, workerData as StoreThreadData);
