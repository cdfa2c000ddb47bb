import { setTimeout as sleep } from 'node:timers/promises';
import { type EventSourceMessage, createParser } from 'eventsource-parser';
import { ApiError, NetworkError } from './errors';

/** One signal of a channel's stream: `id` is `<seq>.<part>`, absent on consent results (sent live only). */
export interface SignalEvent {
  id: string | undefined;
  kind: string;
  signal: Record<string, unknown>;
}

export interface SignalFeedOptions {
  endpoint: string;
  token: string;
  brand: string;
  /** resume after this event id; `now`: only signals written after the feed starts (also across its reconnections); undefined: from the channel's start */
  after: string | undefined;
  /** handles one event; the next is read once it has finished, and a rejection ends the feed with that error */
  onEvent: (event: SignalEvent) => Promise<void>;
  /** the stream is open (the service answered); after a break, again at each reopening */
  onOpen?: () => void;
  /** the stream broke and is opened again in `retryInMs` (resuming after the last event handled) */
  onDisconnect?: (error: Error, retryInMs: number) => void;
  signal: AbortSignal;
}

const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 30_000;

/**
 * Follows a channel's signal stream (`GET /api/agent/signals/stream`, Server-Sent Events) until `signal` aborts:
 * events are handled one at a time, in order; a broken stream is opened again after a pause (1 s doubling to
 * 30 s) from the last event handled. A refusal of the service (4xx: the key, the brand) ends the feed with its
 * ApiError: trying again would not change it.
 */
export async function followSignals(o: SignalFeedOptions): Promise<void> {
  let after = o.after;
  let retryMs = FIRST_RETRY_MS;
  while (!o.signal.aborted) {
    try {
      // fixed once: a stream broken before its first signal resumes at that end, not at a later one
      if (after === 'now') after = await endOf(o);
      await readStream(o, after, (id) => {
        after = id;
        retryMs = FIRST_RETRY_MS;
      });
      if (o.signal.aborted) return;
      o.onDisconnect?.(new Error('the service ended the stream'), retryMs);
    } catch (error) {
      if (o.signal.aborted) return;
      if (error instanceof ApiError && error.status < 500) throw error;
      if (error instanceof HandlerError) throw error.cause;
      o.onDisconnect?.(error instanceof Error ? error : new Error(String(error)), retryMs);
    }
    await sleep(retryMs, undefined, { signal: o.signal }).catch(() => undefined);
    retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
  }
}

/** A failure of the caller's handler, told apart from a failure of the stream. */
class HandlerError extends Error {
  constructor(override readonly cause: unknown) {
    super('the signal handler failed');
  }
}

/** The channel's end now, as a cursor to follow from (`GET /api/agent/signals?after=now`). */
async function endOf(o: SignalFeedOptions): Promise<string> {
  const url = new URL('/api/agent/signals', o.endpoint);
  url.searchParams.set('brand', o.brand);
  url.searchParams.set('after', 'now');
  const response = await opened(o, url, 'application/json');
  if (!response.ok) throw await refusal(response);
  return String(((await response.json()) as { next: unknown }).next);
}

async function opened(o: SignalFeedOptions, url: URL, accept: string): Promise<Response> {
  try {
    return await fetch(url, { headers: { authorization: `Bearer ${o.token}`, accept }, signal: o.signal });
  } catch (error) {
    throw new NetworkError(o.endpoint, error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error));
  }
}

async function readStream(o: SignalFeedOptions, after: string | undefined, handled: (id: string) => void): Promise<void> {
  const url = new URL('/api/agent/signals/stream', o.endpoint);
  url.searchParams.set('brand', o.brand);
  if (after !== undefined) url.searchParams.set('after', after);
  const response = await opened(o, url, 'text/event-stream');
  if (!response.ok || !response.body) throw await refusal(response);
  o.onOpen?.();
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  const decoder = new TextDecoder();
  for await (const chunk of response.body) {
    parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    for (let event = events.shift(); event; event = events.shift()) {
      const signal = JSON.parse(event.data) as Record<string, unknown>;
      try {
        await o.onEvent({ id: event.id, kind: event.event ?? String(signal['kind']), signal });
      } catch (error) {
        throw new HandlerError(error);
      }
      if (event.id !== undefined) handled(event.id);
    }
  }
}

async function refusal(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let body: { code?: unknown; message?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    body = {};
  }
  const code = typeof body.code === 'string' ? body.code : `HTTP_${response.status}`;
  const message = typeof body.message === 'string' ? body.message : `the signal stream answered HTTP ${response.status}`;
  return new ApiError(response.status, code, message);
}
