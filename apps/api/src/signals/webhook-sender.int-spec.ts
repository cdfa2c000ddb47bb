import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from './webhook-signature';
import { WebhookSender } from './webhook-sender';

const SECRET = 'whsec_test-secret';
const BODY = JSON.stringify({ kind: 'message', seq: 7, brandKey: 'acme-kakao', userKey: 'c1', timestampUnixMs: 1 });

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  socketPort: number;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse, received: Received) => void): Promise<{ url: string; server: Server; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const entry = { headers: req.headers, body, socketPort: req.socket.remotePort ?? 0 };
      received.push(entry);
      handler(req, res, entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook?x=1`, server, received };
}

describe('WebhookSender', () => {
  const servers: Server[] = [];
  const senders: WebhookSender[] = [];
  const sender = (timeoutMs?: number, allowLoopback = true): WebhookSender => {
    const s = new WebhookSender({ allowLoopback }, timeoutMs);
    senders.push(s);
    return s;
  };

  afterEach(async () => {
    senders.splice(0).forEach((s) => s.close());
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => { s.closeAllConnections(); s.close(resolve); })));
  });

  it('POSTs the body with Standard Webhooks headers and reuses the connection', async () => {
    const target = await listen((_req, res) => res.writeHead(204).end());
    servers.push(target.server);
    const s = sender();
    await expect(s.send(target.url, SECRET, 'sig_a_7_0', BODY, 1_700_000_000_000)).resolves.toEqual({ ok: true });
    await expect(s.send(target.url, SECRET, 'sig_a_8_0', BODY, 1_700_000_000_000)).resolves.toEqual({ ok: true });
    const [first, second] = target.received;
    expect(first?.body).toBe(BODY);
    expect(first?.headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': 'sig_a_7_0', 'webhook-timestamp': '1700000000' });
    expect(verifyWebhook(SECRET, 'sig_a_7_0', 1_700_000_000, BODY, String(first?.headers['webhook-signature']))).toBe(true);
    expect(second?.socketPort).toBe(first?.socketPort);
  });

  it('reports a non-2xx answer by its status and does not follow redirects', async () => {
    const failing = await listen((_req, res) => res.writeHead(503).end('busy'));
    const moving = await listen((_req, res) => res.writeHead(302, { location: failing.url }).end());
    servers.push(failing.server, moving.server);
    const s = sender();
    await expect(s.send(failing.url, SECRET, 'id', BODY, Date.now())).resolves.toEqual({ ok: false, error: 'HTTP 503' });
    await expect(s.send(moving.url, SECRET, 'id', BODY, Date.now())).resolves.toEqual({ ok: false, error: 'HTTP 302' });
    expect(failing.received).toHaveLength(1);
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    const silent = await listen(() => undefined);
    servers.push(silent.server);
    const started = Date.now();
    const attempt = await sender(300).send(silent.url, SECRET, 'id', BODY, Date.now());
    expect(attempt.ok).toBe(false);
    expect(attempt.error).toMatch(/^ETIMEDOUT/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('reports a refused connection and a loopback address the policy refuses, without sending', async () => {
    const closed = await listen(() => undefined);
    const url = closed.url;
    await new Promise((resolve) => closed.server.close(resolve));
    await expect(sender().send(url, SECRET, 'id', BODY, Date.now())).resolves.toMatchObject({ ok: false, error: expect.stringMatching(/^ECONNREFUSED/) });

    const target = await listen((_req, res) => res.writeHead(204).end());
    servers.push(target.server);
    const viaName = target.url.replace('127.0.0.1', 'localhost');
    await expect(sender(undefined, false).send(viaName, SECRET, 'id', BODY, Date.now())).resolves.toMatchObject({ ok: false, error: expect.stringMatching(/^EBLOCKED/) });
    expect(target.received).toHaveLength(0);
  });

  it('applies the URL policy as it is now to a stored URL: http and IP literals it refuses get nothing (no lookup guards them)', async () => {
    const target = await listen((_req, res) => res.writeHead(204).end());
    servers.push(target.server);
    const port = new URL(target.url).port;
    // stored while the sandbox was the upstream (loopback allowed), sent after a restart with a real messenger
    await expect(sender(undefined, false).send(target.url, SECRET, 'id', BODY, Date.now())).resolves.toEqual({
      ok: false,
      error: 'EBLOCKED webhook URL refused: the URL must be https',
      urlRefused: 'the URL must be https',
    });
    for (const [url, reason] of [
      [`https://127.0.0.1:${port}/hook`, '127.0.0.1 is a loopback address'],
      [`https://[::7f00:1]:${port}/hook`, '::7f00:1 is a loopback address (it embeds 127.0.0.1)'],
      [`https://[::ffff:7f00:1]:${port}/hook`, '::ffff:7f00:1 is a loopback address (it embeds 127.0.0.1)'],
      ['https://[::a9fe:a9fe]/latest', '::a9fe:a9fe is a linkLocal address (it embeds 169.254.169.254)'],
    ] as const) {
      const attempt = await sender(undefined, false).send(url, SECRET, 'id', BODY, Date.now());
      expect(attempt).toMatchObject({ ok: false, urlRefused: expect.stringContaining(reason) });
    }
    expect(target.received).toHaveLength(0);
    // with the sandbox as the upstream the same URL is delivered to
    await expect(sender(undefined, true).send(target.url, SECRET, 'id', BODY, Date.now())).resolves.toEqual({ ok: true });
  });
});
