import type { SignalPayload } from '@brandwire/domain';
import { signalCursor } from '@brandwire/domain';
import { MAX_PART, type SignalRecord, type Store } from '@brandwire/store';
import { Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { SignalBus } from './signal-bus';

const PAGE = 500;
const POLL_MS = 1_000;
const PING_EVERY_POLLS = 15;
/** What a client that does not read may leave waiting in memory before its stream is ended (it resumes by id). */
const MAX_UNREAD_BYTES = 1024 * 1024;
/** how long a client waits before reconnecting to a stream ended by a failure (a browser's EventSource obeys it) */
const RETRY_AFTER_FAILURE_MS = 10_000;

const logger = new Logger('SignalStream');

/**
 * One Server-Sent Events stream of a channel's signals: the backlog after the cursor, then live signals as they
 * are written (news from this instance at once; from other instances within a second by polling). Event ids are
 * `<seq>.<part>`, so a client resumes with Last-Event-ID. Consent results are sent live only, without an id.
 *
 * The first page is read before the answer begins, so a failure to read it rejects (the caller answers 500,
 * which a client tells from an empty stream). A later failure is logged and ends the stream after an SSE comment
 * saying so (`: error: …`) and a longer `retry`: the client reconnects from its last id, later.
 *
 * Returns what ends the stream, or undefined when the client left before it opened (nothing is kept for it).
 */
export async function streamSignals(
  store: Store,
  bus: SignalBus,
  channelKey: string,
  start: { seq: number; part: number },
  req: Request,
  res: Response,
): Promise<(() => void) | undefined> {
  let gone = false;
  const onGone = () => (gone = true);
  res.once('close', onGone);
  let first: SignalRecord[] | undefined;
  try {
    first = await store.signals.listAfter(channelKey, start, PAGE);
  } finally {
    res.off('close', onGone);
  }
  // the client left while the first page was read: nothing to stream to, nor to close (its close has been)
  if (gone || req.destroyed) return undefined;
  let cursor = start;
  let busy = false;
  let again = false;
  let closed = false;
  let polls = 0;

  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write('retry: 2000\n\n');
  // where it starts (unless at the channel's start), as an id alone, which dispatches no event: a client that
  // reconnects before any signal resumes there, not at a later end (`after=now`)
  if (start.part >= 0) res.write(`id: ${start.part >= MAX_PART ? String(start.seq) : signalCursor(start.seq, start.part)}\n\n`);

  const write = (id: string | undefined, payload: SignalPayload) => {
    res.write(`${id ? `id: ${id}\n` : ''}event: ${payload.kind}\ndata: ${JSON.stringify(payload)}\n\n`);
    if (res.writableLength > MAX_UNREAD_BYTES) close();
  };

  /** The backlog is read a page at a time, each once the client has taken the one before. */
  const drained = (): Promise<void> =>
    res.writableNeedDrain && !closed
      ? new Promise((resume) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resume();
          };
          res.on('drain', done);
          res.on('close', done);
        })
      : Promise.resolve();

  const pump = async (): Promise<void> => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      do {
        again = false;
        for (;;) {
          const page = first ?? (await store.signals.listAfter(channelKey, cursor, PAGE));
          first = undefined;
          for (const signal of page) {
            if (closed) return;
            write(signalCursor(signal.seq, signal.part), signal.payload);
            cursor = { seq: signal.seq, part: signal.part };
          }
          if (page.length < PAGE) break;
          await drained();
        }
      } while (again && !closed);
    } catch (error) {
      logger.error(`signal stream of ${channelKey} failed: ${error instanceof Error ? error.message : String(error)}; the stream is ended`);
      if (!closed) res.write(`retry: ${RETRY_AFTER_FAILURE_MS}\n: error: the signals could not be read; reconnect with the last event id\n\n`);
      close();
    } finally {
      busy = false;
    }
  };

  const offWritten = bus.onWritten((channel) => {
    if (channel === channelKey) void pump();
  });
  const offEphemeral = bus.onEphemeral(channelKey, (payload) => {
    if (!closed) write(undefined, payload);
  });
  const timer = setInterval(() => {
    polls += 1;
    if (polls % PING_EVERY_POLLS === 0) res.write(': ping\n\n');
    void pump();
  }, POLL_MS);

  function close(): void {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    offWritten();
    offEphemeral();
    res.end();
  }
  req.on('close', close);
  void pump();
  return close;
}
