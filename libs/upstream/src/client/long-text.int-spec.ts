import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UpstreamUnavailableError } from './errors';
import { fetchLongText } from './long-text';

/** A stand-in for the messenger's host: serves /whole.txt, /big.txt (over the cap), /slow.txt, /moved.txt. */
describe('fetchLongText', () => {
  let server: Server;
  let base: string;
  const limits = { timeoutMs: 300, maxBytes: 1_000 };

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/whole.txt') return void res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('안녕하세요, the whole text');
      if (req.url === '/big.txt') return void res.writeHead(200).end('x'.repeat(1_001));
      if (req.url === '/chunked-big.txt') {
        res.writeHead(200);
        res.write('y'.repeat(600));
        return void res.end('y'.repeat(600));
      }
      if (req.url === '/moved.txt') return void res.writeHead(302, { location: 'http://example.invalid/x.txt' }).end();
      if (req.url === '/slow.txt') return void setTimeout(() => res.writeHead(200).end('late'), 1_000);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('returns the whole text from the messenger’s own host, decoded as UTF-8', async () => {
    await expect(fetchLongText(base, `${base}/whole.txt`, limits)).resolves.toBe('안녕하세요, the whole text');
  });

  it.each([
    ['another host', () => `http://localhost:${new URL(base).port}/whole.txt`, 'bad_response'],
    ['another port', () => 'http://127.0.0.1:1/whole.txt', 'bad_response'],
    ['not a URL', () => 'whole.txt', 'bad_response'],
    ['a file over the cap', () => `${base}/big.txt`, 'bad_response'],
    ['a streamed file over the cap', () => `${base}/chunked-big.txt`, 'bad_response'],
    ['a redirect (not followed)', () => `${base}/moved.txt`, 'http_status'],
    ['a missing file', () => `${base}/none.txt`, 'http_status'],
    ['an answer slower than the timeout', () => `${base}/slow.txt`, 'timeout'],
  ])('refuses %s', async (_name, url, reason) => {
    const failure = await fetchLongText(base, url(), limits).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(UpstreamUnavailableError);
    expect((failure as UpstreamUnavailableError).reason).toBe(reason);
  });
});
