import { connect } from 'node:net';
import { ServiceHarness } from '../../test-support/service-harness';

describe('a connection that pipelines requests without reading the answers', () => {
  let h: ServiceHarness;
  beforeAll(async () => (h = await ServiceHarness.start()));
  afterAll(() => h.stop());

  it('gets at most 32 answered at once, the rest 429 RATE_LIMITED and the connection closed, while other connections are served', async () => {
    const { hostname, port } = new URL(h.url);
    const flood = connect({ host: hostname, port: Number(port) });
    flood.pause();
    await new Promise((resolve) => flood.once('connect', resolve));
    const request = 'GET /api/agent/me HTTP/1.1\r\nHost: x\r\n\r\n';
    for (let i = 0; i < 20; i++) flood.write(request.repeat(500));

    const started = Date.now();
    const health = await fetch(`${h.url}/healthz`);
    expect([health.status, Date.now() - started < 2_000]).toEqual([200, true]);

    let received = '';
    flood.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const closed = new Promise((resolve) => flood.once('close', resolve));
    flood.resume();
    await closed;
    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    expect(statuses.slice(0, 32)).toEqual(Array.from({ length: 32 }, () => 401));
    expect(statuses[32]).toBe(429);
    expect(statuses.length).toBeLessThan(200);
    expect(received).toContain('{"ok":false,"code":"RATE_LIMITED","message":"more than 32 requests of this connection are being answered at once (HTTP pipelining): wait for the answers, or use more connections"}');
  });

  it('answers a client that pipelines a few requests in order', async () => {
    const { hostname, port } = new URL(h.url);
    const socket = connect({ host: hostname, port: Number(port) });
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(5) + 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await new Promise((resolve) => socket.once('close', resolve));
    expect([...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]))).toEqual([200, 200, 200, 200, 200, 200]);
  });
});
