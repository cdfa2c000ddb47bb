import http from 'node:http';
import https from 'node:https';
import { postOnce } from '../http-post';
import { DEFAULT_REPEAT_POLICY, RepeatPolicy, repeatDelayMs } from './callback-repeats';
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

export interface CallbackDispatcherOptions {
  /** the partner's registered callback url (null until PUT /_sandbox/partner) */
  callbackUrl: () => string | null;
  partnerKey: string;
  timeoutMs: number;
  /** the sandbox's clock: how long a callback has been repeated is counted on it */
  clock: { now(): number };
  repeats?: RepeatPolicy;
  /** told of callbacks dropped unsent (repeated too long, or the sandbox stopped) */
  onNotice?: (message: string) => void;
}

interface Attempt {
  record: CallbackRecord;
  /** no 2xx answer that another send may change: no answer at all, a timeout, a 5xx */
  repeatable: boolean;
}

interface Pending {
  event: CallbackEvent;
  /** settles the record the control call answers: at the first outcome, or when it queues behind a repeat */
  report: (record: CallbackRecord) => void;
  reported: boolean;
  /** the sandbox's clock at the first failed send */
  failingSince?: number;
  repeats: number;
}

/** One customer's callbacks, sent strictly one after another: a later one never overtakes one being repeated. */
interface Line {
  items: Pending[];
  /** set while the first callback waits for its next send */
  paused?: { wake: () => void };
}

/**
 * POSTs callbacks to the partner (`<callbackUrl>/<path>`), one customer's in order. A callback that got no 2xx
 * answer (no answer, a timeout, a 5xx) is sent again with a growing wait (RepeatPolicy) and the customer's later
 * callbacks wait behind it; a 4xx answer is final. Repeats live in memory only: close() drops them.
 */
export class CallbackDispatcher {
  private readonly agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
  };
  /** a line is here exactly while its drain loop runs */
  private readonly lines = new Map<string, Line>();
  private readonly unreported = new Set<Promise<CallbackRecord>>();
  private readonly headers: Record<string, string>;
  private readonly policy: RepeatPolicy;
  private stopped = false;

  constructor(private readonly o: CallbackDispatcherOptions) {
    this.headers = { 'x-partner-key': o.partnerKey, 'content-type': 'application/json' };
    this.policy = o.repeats ?? DEFAULT_REPEAT_POLICY;
  }

  /**
   * Queues the events behind the customer's earlier ones. Resolves (never rejects) with one record per event once
   * each was sent once, or is queued behind a callback being repeated: it does not wait for repeats.
   */
  enqueue(key: string, events: readonly CallbackEvent[]): Promise<CallbackRecord[]> {
    if (events.length === 0) return Promise.resolve([]);
    let line = this.lines.get(key);
    const idle = line === undefined;
    line ??= { items: [] };
    const records = events.map((event) => this.add(line, event));
    if (this.stopped) {
      for (const p of line.items) settle(p, notSent(p.event, 'the sandbox is stopping'));
      return Promise.all(records);
    }
    if (line.paused) for (const p of line.items.slice(1)) settle(p, behind(p.event));
    if (idle) {
      this.lines.set(key, line);
      void this.drain(key, line);
    }
    return Promise.all(records);
  }

  /** Queues the events of several customers; resolves with all records in the order given. */
  async enqueueAll(groups: readonly CustomerEvents[]): Promise<CallbackRecord[]> {
    const runs = groups.map((g) => this.enqueue(g.key, g.events));
    return (await Promise.all(runs)).flat();
  }

  /** Waits until every queued callback was sent once or waits behind a repeat (repeats are not waited for). */
  async idle(): Promise<void> {
    while (this.unreported.size > 0) await Promise.all([...this.unreported]);
  }

  /** Stops: pending repeats are dropped (no timer is left), and the connections closed. */
  close(): void {
    if (this.stopped) return;
    this.stopped = true;
    const dropped = [...this.lines.values()].reduce((n, line) => n + line.items.length, 0);
    if (dropped > 0) this.o.onNotice?.(`${dropped} callback(s) waiting to be repeated were dropped: the sandbox keeps no callbacks across a stop`);
    for (const line of this.lines.values()) line.paused?.wake();
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private add(line: Line, event: CallbackEvent): Promise<CallbackRecord> {
    let report!: (record: CallbackRecord) => void;
    const record = new Promise<CallbackRecord>((resolve) => (report = resolve));
    this.unreported.add(record);
    void record.then(() => this.unreported.delete(record));
    line.items.push({ event, report, reported: false, repeats: 0 });
    return record;
  }

  private async drain(key: string, line: Line): Promise<void> {
    for (let head = line.items[0]; head && !this.stopped; head = line.items[0]) {
      const attempt = await this.send(head.event);
      if (this.stopped) break;
      if (!attempt.repeatable) {
        line.items.shift();
        settle(head, attempt.record);
        continue;
      }
      const now = this.o.clock.now();
      head.failingSince ??= now;
      if (now - head.failingSince >= this.policy.giveUpAfterMs) {
        line.items.shift();
        const why = `no 2xx answer for ${durationText(this.policy.giveUpAfterMs)} of the sandbox's clock: dropped`;
        settle(head, { ...attempt.record, error: `${attempt.record.error ?? `HTTP ${attempt.record.status}`}; ${why}` });
        this.o.onNotice?.(`the /${head.event.path} callback of customer ${String(head.event.body['user_key'])} got ${why}`);
        continue;
      }
      const wait = repeatDelayMs(this.policy, head.repeats);
      head.repeats += 1;
      settle(head, { ...attempt.record, queued: 'repeat' });
      for (const p of line.items.slice(1)) settle(p, behind(p.event));
      await pause(line, wait);
    }
    for (const p of line.items) settle(p, notSent(p.event, 'the sandbox stopped before sending it'));
    this.lines.delete(key);
  }

  private async send(e: CallbackEvent): Promise<Attempt> {
    const path = `/${e.path}`;
    const base = this.o.callbackUrl();
    if (!base) return { record: notSent(e, 'no callback url registered (PUT /_sandbox/partner)'), repeatable: false };
    try {
      const answer = await postOnce(base.replace(/\/+$/, '') + path, {
        headers: this.headers,
        body: JSON.stringify(e.body),
        timeoutMs: this.o.timeoutMs,
        agents: this.agents,
        readBody: true,
      });
      return { record: { path, status: answer.status, body: parseBody(answer.body) }, repeatable: answer.status >= 500 };
    } catch (err) {
      return { record: notSent(e, err instanceof Error ? err.message : String(err)), repeatable: true };
    }
  }
}

function settle(p: Pending, record: CallbackRecord): void {
  if (p.reported) return;
  p.reported = true;
  p.report(record);
}

function notSent(e: CallbackEvent, error: string): CallbackRecord {
  return { path: `/${e.path}`, status: 0, body: null, error };
}

function behind(e: CallbackEvent): CallbackRecord {
  return { path: `/${e.path}`, status: 0, body: null, queued: 'behind' };
}

/** Waits `ms`, or less when the line is woken (close()); no timer is left behind either way. */
function pause(line: Line, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const wake = (): void => {
      clearTimeout(timer);
      line.paused = undefined;
      resolve();
    };
    const timer = setTimeout(wake, ms);
    line.paused = { wake };
  });
}

function durationText(ms: number): string {
  const hours = ms / 3_600_000;
  return Number.isInteger(hours) ? `${hours} h` : `${ms / 1000} s`;
}

function parseBody(data: string): unknown {
  if (data.length === 0) return null;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}
