import http from 'node:http';
import https from 'node:https';
import axios, { AxiosInstance } from 'axios';
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
  private readonly http: AxiosInstance;
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 256 });
  private readonly chains = new Map<string, Promise<CallbackRecord[]>>();

  constructor(
    private readonly callbackUrl: () => string | null,
    partnerKey: string,
    timeoutMs: number,
  ) {
    this.http = axios.create({
      timeout: timeoutMs,
      headers: { 'X-Partner-Key': partnerKey, 'Content-Type': 'application/json' },
      httpAgent: this.httpAgent,
      httpsAgent: this.httpsAgent,
      maxRedirects: 0,
      validateStatus: () => true,
      transformResponse: [(data: unknown) => data],
      responseType: 'text',
    });
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
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
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
      const res = await this.http.post<unknown>(base.replace(/\/+$/, '') + path, JSON.stringify(e.body));
      return { path, status: res.status, body: parseBody(res.data) };
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      return { path, status: 0, body: null, error: detail };
    }
  }
}

function parseBody(data: unknown): unknown {
  if (typeof data !== 'string' || data.length === 0) return null;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}
