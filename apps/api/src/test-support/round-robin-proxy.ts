import { type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A minimal load balancer on loopback: forwards each request to the next live target, skipping dead ones. */
export class RoundRobinProxy {
  private next = 0;
  private constructor(
    private readonly server: Server,
    readonly targets: string[],
  ) {}

  static async start(targets: string[] = []): Promise<RoundRobinProxy> {
    const server = createServer();
    const proxy = new RoundRobinProxy(server, targets);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => proxy.forward(req.method ?? 'GET', req.url ?? '/', req.headers, Buffer.concat(chunks), res, proxy.targets.length));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private forward(method: string, path: string, headers: import('node:http').IncomingHttpHeaders, body: Buffer, res: import('node:http').ServerResponse, triesLeft: number): void {
    const target = this.targets[this.next++ % Math.max(1, this.targets.length)];
    if (!target || triesLeft <= 0) {
      res.writeHead(502).end();
      return;
    }
    const upstream = request(`${target}${path}`, { method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => this.forward(method, path, headers, body, res, triesLeft - 1));
    upstream.end(body);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
