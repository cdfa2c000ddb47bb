import { type IncomingMessage, type Server, createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy passed on: each request's method, path and Idempotency-Key header. */
export interface Seen {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
}

export interface HoldingProxy {
  url: string;
  seen: Seen[];
  /** resolves once the service has answered every request held back so far */
  held(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A proxy in front of the service that passes every request on, and never passes on the answer of the ones `hold`
 * picks: the service carries them out, the tool hears nothing back (a network that lost the answer).
 */
export async function startHoldingProxy(target: string, hold: (method: string, path: string) => boolean): Promise<HoldingProxy> {
  const seen: Seen[] = [];
  const answers: Array<Promise<void>> = [];
  const { hostname, port } = new URL(target);
  const server: Server = createServer((incoming, outgoing) => {
    const method = incoming.method ?? 'GET';
    const path = (incoming.url ?? '/').split('?')[0] ?? '/';
    const key = incoming.headers['idempotency-key'];
    seen.push({ method, path, idempotencyKey: typeof key === 'string' ? key : undefined });
    const held = hold(method, path);
    const answered = new Promise<void>((done, fail) => {
      const upstream = forward({ hostname, port, method, path: incoming.url, headers: incoming.headers }, (answer: IncomingMessage) => {
        if (held) {
          answer.resume();
          answer.on('end', () => done());
          return;
        }
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
        answer.on('end', () => done());
      });
      upstream.on('error', fail);
      incoming.pipe(upstream);
    });
    if (held) answers.push(answered);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    held: async () => {
      await Promise.all(answers);
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
