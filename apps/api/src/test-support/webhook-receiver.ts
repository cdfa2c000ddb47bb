import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  /** when the delivery arrived (epoch ms) */
  atMs: number;
  /** when it was answered (epoch ms) */
  answeredAtMs?: number;
  body: string;
  json: Record<string, unknown>;
}

/** A webhook receiver on loopback that records every delivery and can be told to fail or to go away. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  status = 200;
  /** how long to wait before answering */
  answerDelayMs = 0;
  private server: Server | undefined;
  private waiters: Array<() => void> = [];

  private constructor(private port: number) {}

  static async start(port = 0): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(port);
    await receiver.listen();
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Accepted deliveries only (those answered 2xx), in arrival order. */
  get accepted(): ReceivedWebhook[] {
    return this.received.filter((r) => (r as ReceivedWebhook & { answered?: number }).answered === 200);
  }

  async listen(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const entry: ReceivedWebhook & { answered: number } = { headers: req.headers, atMs: Date.now(), body, json: JSON.parse(body || '{}') as Record<string, unknown>, answered: this.status };
        this.received.push(entry);
        const answer = () => {
          entry.answeredAtMs = Date.now();
          res.writeHead(entry.answered).end();
          for (const wake of this.waiters.splice(0)) wake();
        };
        if (this.answerDelayMs > 0) setTimeout(answer, this.answerDelayMs);
        else answer();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Stops listening (connections refused) until listen() is called again on the same port. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Waits until `predicate` holds over the accepted deliveries; fails the test after `timeoutMs`. */
  async waitFor(predicate: (accepted: ReceivedWebhook[]) => boolean, timeoutMs = 10_000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.accepted)) {
      if (Date.now() > deadline) throw new Error(`webhook receiver: condition not met in ${timeoutMs} ms; accepted ${this.accepted.length}: ${this.accepted.map((r) => r.body).join('\n')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 100);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.accepted;
  }
}
