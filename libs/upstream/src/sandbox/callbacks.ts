import http from 'node:http';
import https from 'node:https';
import { postOnce } from '../http-post';
import { CallbackRecord } from './control-types';

export type CallbackPath = 'reference' | 'message' | 'expired_session' | 'personal_info' | 'deleted';

export interface CallbackEvent {
  path: CallbackPath;
  body: Record<string, unknown>;
}

/** Callback events of one customer, in the order they must reach the partner. */
export interface CustomerEvents {
  key: string;
  events: CallbackEvent[];
}

export const DEFAULT_CALLBACK_TIMEOUT_MS = 5_000;

/**
 * POSTs callbacks to the partner (`<callbackUrl>/<path>`). Callbacks of one customer are delivered one at a
 * time in order (a chain per customer), each awaited; the partner's answers are recorded.
 */
export class CallbackDispatcher {
  private readonly agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
  };
  private readonly chains = new Map<string, Promise<CallbackRecord[]>>();
  private readonly headers: Record<string, string>;

  constructor(
    private readonly callbackUrl: () => string | null,
    partnerKey: string,
    private readonly timeoutMs: number,
  ) {
    this.headers = { 'x-partner-key': partnerKey, 'content-type': 'application/json' };
  }

  /** Queues the events behind the customer's earlier ones; resolves (never rejects) with the records. */
  enqueue(key: string, events: readonly CallbackEvent[]): Promise<CallbackRecord[]> {
    if (events.length === 0) return Promise.resolve([]);
    const previous = this.chains.get(key);
    const run = (previous ?? Promise.resolve([])).then(() => this.deliverAll(events));
    this.chains.set(key, run);
    void run.then(() => {
      if (this.chains.get(key) === run) this.chains.delete(key);
    });
    return run;
  }

  /** Queues the events of several customers; resolves with all records in the order given. */
  async enqueueAll(groups: readonly CustomerEvents[]): Promise<CallbackRecord[]> {
    const runs = groups.map((g) => this.enqueue(g.key, g.events));
    return (await Promise.all(runs)).flat();
  }

  /** Waits until every queued callback was delivered (or failed). */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private async deliverAll(events: readonly CallbackEvent[]): Promise<CallbackRecord[]> {
    const records: CallbackRecord[] = [];
    for (const e of events) records.push(await this.deliver(e));
    return records;
  }

  private async deliver(e: CallbackEvent): Promise<CallbackRecord> {
    const path = `/${e.path}`;
    const base = this.callbackUrl();
    if (!base) return { path, status: 0, body: null, error: 'no callback url registered (PUT /_sandbox/partner)' };
    try {
      const answer = await postOnce(base.replace(/\/+$/, '') + path, { headers: this.headers, body: JSON.stringify(e.body), timeoutMs: this.timeoutMs, agents: this.agents, readBody: true });
      return { path, status: answer.status, body: parseBody(answer.body) };
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      return { path, status: 0, body: null, error: detail };
    }
  }
}

function parseBody(data: string): unknown {
  if (data.length === 0) return null;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}
