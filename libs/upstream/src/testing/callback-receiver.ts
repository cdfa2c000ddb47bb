import http, { IncomingHttpHeaders } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedCallback {
  /** 1, 2, ... in arrival order */
  seq: number;
  /** '/message', '/reference', ... */
  path: string;
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  receivedAt: number;
}

export interface CallbackAnswer {
  status: number;
  body?: unknown;
  /** wait this long before answering (to provoke the sandbox's callback timeout) */
  delayMs?: number;
}

type Matcher = (body: Record<string, unknown>) => boolean;

interface Expectation {
  path: string;
  where: Matcher | undefined;
  met: ReceivedCallback | undefined;
}

/**
 * A tiny partner callback endpoint (node:http) for tests: records every callback and answers
 * `{ok: true, seq: n}`. Expectations registered with expect() make verify() fail when a callback never came.
 */
export class CallbackReceiver {
  readonly received: ReceivedCallback[] = [];
  private readonly expectations: Expectation[] = [];
  private readonly waiters = new Set<() => void>();
  private responder: ((cb: ReceivedCallback) => CallbackAnswer | undefined) | undefined;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(opts: { host?: string; port?: number } = {}): Promise<CallbackReceiver> {
    const server = http.createServer();
    const host = opts.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const receiver = new CallbackReceiver(server, `http://${host}:${port}`);
    server.on('request', (req, res) => receiver.handle(req, res));
    return receiver;
  }

  /** Overrides the answer (return undefined for the default `{ok: true, seq}`). */
  respondWith(fn: ((cb: ReceivedCallback) => CallbackAnswer | undefined) | undefined): void {
    this.responder = fn;
  }

  of(path: string): ReceivedCallback[] {
    return this.received.filter((c) => c.path === path);
  }

  paths(): string[] {
    return this.received.map((c) => c.path);
  }

  /** Expects a callback on `path` (matching `where`) to arrive; checked by verify(). */
  expect(path: string, where?: Matcher): void {
    const e: Expectation = { path, where, met: undefined };
    this.expectations.push(e);
    this.match();
  }

  /** Waits up to `timeoutMs` for every expectation; throws naming the ones that never arrived. */
  async verify(timeoutMs = 2_000): Promise<void> {
    const unmet = () => this.expectations.filter((e) => !e.met);
    await this.until(() => unmet().length === 0, timeoutMs).catch(() => undefined);
    const missing = unmet();
    if (missing.length > 0) {
      const names = missing.map((e) => e.path + (e.where ? ' (with a matcher)' : '')).join(', ');
      throw new Error(`expected callbacks never arrived: ${names}; received: [${this.paths().join(', ')}]`);
    }
  }

  /** Waits until `count` callbacks on `path` (matching `where`) arrived; rejects after `timeoutMs`. */
  async waitFor(
    path: string,
    o: { count?: number; timeoutMs?: number; where?: Matcher } = {},
  ): Promise<ReceivedCallback[]> {
    const count = o.count ?? 1;
    const pick = () => this.of(path).filter((c) => !o.where || o.where(c.body));
    try {
      await this.until(() => pick().length >= count, o.timeoutMs ?? 2_000);
    } catch {
      throw new Error(`callback ${path} x${count} did not arrive in time; received: [${this.paths().join(', ')}]`);
    }
    return pick();
  }

  /** Forgets received callbacks and expectations. */
  clear(): void {
    this.received.length = 0;
    this.expectations.length = 0;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private until(done: () => boolean, timeoutMs: number): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error('timeout'));
      }, timeoutMs);
      this.waiters.add(check);
    });
  }

  private match(): void {
    for (const e of this.expectations) {
      if (e.met) continue;
      const taken = new Set(this.expectations.map((x) => x.met));
      e.met = this.received.find((c) => c.path === e.path && !taken.has(c) && (!e.where || e.where(c.body)));
    }
    for (const w of [...this.waiters]) w();
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown>;
      try {
        const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        body = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : { value: parsed };
      } catch {
        res.writeHead(400, { 'Content-Type': 'application/json' }).end('{"ok":false}');
        return;
      }
      const cb: ReceivedCallback = {
        seq: this.received.length + 1,
        path: (req.url ?? '/').split('?')[0] ?? '/',
        body,
        headers: req.headers,
        receivedAt: Date.now(),
      };
      this.received.push(cb);
      this.match();
      const answer = this.responder?.(cb) ?? { status: 200, body: { ok: true, seq: cb.seq } };
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body ?? null));
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  }
}
