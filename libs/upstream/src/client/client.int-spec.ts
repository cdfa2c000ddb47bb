import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { TINY_PNG } from '../testing/images';
import { SandboxHarness } from '../testing/harness';
import { KAKAO, startHarness } from '../test-support/fixtures';
import { SandboxControlClient } from './control-client';
import { UpstreamUnavailableError } from './errors';
import { HttpMessengerClient } from './messenger-client';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

async function serve(handler: Handler): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A port nothing listens on. */
async function deadUrl(): Promise<string> {
  const s = await serve(() => undefined);
  await s.close();
  return s.url;
}

async function failure(p: Promise<unknown>): Promise<UpstreamUnavailableError> {
  const err: unknown = await p.then(
    () => new Error('expected the call to fail'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpstreamUnavailableError);
  return err as UpstreamUnavailableError;
}

const text = { senderKey: KAKAO, userKey: 'u1', serialNumber: 'bw-1', message: 'hi' };

describe('HttpMessengerClient transport failures', () => {
  it('connection refused -> UpstreamUnavailableError(connection) with a one-line message', async () => {
    const url = await deadUrl();
    const client = new HttpMessengerClient({ baseUrl: url, partnerKey: 'k' });
    const err = await failure(client.writeText(text));
    expect(err.reason).toBe('connection');
    expect(err.neverArrived).toBe(true);
    expect(err.message).toBe(`upstream messenger unavailable (connection): POST /v1/write: connect ECONNREFUSED ${url.slice(7)}`);
    expect(err.message).not.toMatch(/\n/);
    const upload = await failure(client.uploadImage({ senderKey: KAKAO, data: TINY_PNG, fileName: 'a.png', imageType: 'rich' }));
    expect(upload.reason).toBe('connection');
    client.close();
  });

  it('no answer within the timeout -> timeout', async () => {
    const server = await serve(() => undefined);
    const client = new HttpMessengerClient({ baseUrl: server.url, partnerKey: 'k', timeoutMs: 150 });
    try {
      const err = await failure(client.end({ senderKey: KAKAO, userKey: 'u1' }));
      expect([err.reason, err.neverArrived]).toEqual(['timeout', false]);
      expect(err.message).toMatch(/^upstream messenger unavailable \(timeout\): POST \/v1\/end: timeout of 150ms exceeded$/);
    } finally {
      client.close();
      await server.close();
    }
  });

  it('a connection reset once the call was sent -> connection, which may have arrived', async () => {
    const server = await serve((q) => q.on('data', () => q.socket.destroy()));
    const client = new HttpMessengerClient({ baseUrl: server.url, partnerKey: 'k' });
    try {
      const err = await failure(client.end({ senderKey: KAKAO, userKey: 'u1' }));
      expect([err.reason, err.neverArrived]).toEqual(['connection', false]);
    } finally {
      client.close();
      await server.close();
    }
  });

  it.each<[string, string, Handler, number | undefined]>([
    ['a non-2xx status', 'http_status', (_q, s) => s.writeHead(502).end('bad gateway'), 502],
    ['a 200 that is not JSON', 'bad_response', (_q, s) => s.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>'), undefined],
    ['JSON without a code', 'bad_response', (_q, s) => s.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}'), undefined],
  ])('%s -> %s', async (_name, reason, handler, status) => {
    const server = await serve(handler);
    const client = new HttpMessengerClient({ baseUrl: server.url, partnerKey: 'k' });
    try {
      const err = await failure(client.block({ senderKey: KAKAO, userKey: 'u1' }));
      expect([err.reason, err.status, err.neverArrived]).toEqual([reason, status, false]);
    } finally {
      client.close();
      await server.close();
    }
  });

  it('sends X-Partner-Key and passes the upstream code through as a string', async () => {
    let key: string | undefined;
    const server = await serve((req, res) => {
      key = req.headers['x-partner-key'] as string;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"code":-601,"message":"InternalSystemErrorException"}');
    });
    const client = new HttpMessengerClient({ baseUrl: server.url, partnerKey: 'secret-key' });
    try {
      await expect(client.writeText(text)).resolves.toEqual({ code: '-601', message: 'InternalSystemErrorException' });
      expect(key).toBe('secret-key');
    } finally {
      client.close();
      await server.close();
    }
  });
});

describe('SandboxControlClient', () => {
  let h: SandboxHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('reads info and the clock', async () => {
    const info = await h.control.info();
    expect(info).toEqual({ sandbox: true, now: expect.any(Number), bootId: expect.any(String) });
    const clock = await h.control.getClock();
    expect(clock.now).toBeGreaterThanOrEqual(info.now);
    const moved = await h.control.advanceClock(60);
    expect(moved.ok && moved.now).toBeGreaterThanOrEqual(clock.now + 60_000);
  });

  it('returns refusals as {ok: false, code, message}', async () => {
    const wrong = new SandboxControlClient({ baseUrl: h.sandbox.url, partnerKey: 'wrong' });
    try {
      await expect(wrong.chat('u1', KAKAO)).resolves.toEqual({ ok: false, code: 'UNAUTHORIZED', message: 'missing or wrong X-Partner-Key' });
    } finally {
      wrong.close();
    }
    await expect(h.control.customerMessage('u1', { senderKey: 'nope', text: 'x' })).resolves.toMatchObject({ ok: false, code: 'UNKNOWN_CHANNEL' });
    await expect(h.control.customerMessage('u'.repeat(21), { senderKey: KAKAO, text: 'x' })).resolves.toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    await expect(h.control.advanceClock(-1)).resolves.toEqual({ ok: false, code: 'BAD_REQUEST', message: 'advanceSeconds must be a number >= 0' });
    await expect(h.control.setPartner({ callbackUrl: 'ftp://x' })).resolves.toMatchObject({ ok: false, code: 'BAD_REQUEST' });
  });

  it('throws UpstreamUnavailableError when the sandbox is not there', async () => {
    const client = new SandboxControlClient({ baseUrl: await deadUrl(), partnerKey: 'k' });
    const err = await failure(client.info());
    expect(err.reason).toBe('connection');
    client.close();
  });
});

describe('HttpMessengerClient dispatch', () => {
  it('sends the calls made during one turn of the event loop together, at the end of that turn, each with its own answer', async () => {
    const seen: string[] = [];
    const s = await serve((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const serial = (JSON.parse(body) as { serial_number: string }).serial_number;
        seen.push(serial);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(serial === 'bw-2' ? { code: -502, message: 'InvalidSessionException' } : { code: 0 }));
      });
    });
    const client = new HttpMessengerClient({ baseUrl: s.url, partnerKey: 'pk' });
    // JSON calls leave through the undici pool of the client's axios adapter
    const requests = jest.spyOn(Pool.prototype, 'request');
    try {
      const calls = ['bw-1', 'bw-2', 'bw-3'].map((serialNumber) => client.writeText({ ...text, serialNumber }));
      expect(requests).not.toHaveBeenCalled();
      // the client's end-of-turn callback was queued before this one: by now every call has gone out
      await new Promise((resolve) => setImmediate(resolve));
      expect(requests).toHaveBeenCalledTimes(3);
      expect(await Promise.all(calls)).toEqual([
        { code: '0', message: null },
        { code: '-502', message: 'InvalidSessionException' },
        { code: '0', message: null },
      ]);
      expect([...seen].sort()).toEqual(['bw-1', 'bw-2', 'bw-3']);
      // a call of a later turn waits for that turn's end only
      expect(await client.writeText({ ...text, serialNumber: 'bw-4' })).toEqual({ code: '0', message: null });
    } finally {
      requests.mockRestore();
      client.close();
      await s.close();
    }
  });
});
