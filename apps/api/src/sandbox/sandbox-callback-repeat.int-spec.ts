import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sessionExpiresAt } from '@brandwire/domain';
import { ServiceHarness } from '../test-support/service-harness';

interface Item {
  kind: string;
  text: string;
  seq: number;
  timestampUnixMs: number;
}

/**
 * Stands between the sandbox messenger and the service: answers 503 to the first `refusals` callbacks, then
 * passes each one on to the service and its answer back.
 */
async function flakyProxy(target: () => string, refusals: number): Promise<{ url: string; refused: string[]; close(): Promise<void> }> {
  const refused: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (refused.length < refusals) {
        refused.push(req.url ?? '');
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"ok":false}');
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of ['content-type', 'x-partner-key']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      fetch(`${target()}${req.url ?? ''}`, { method: 'POST', headers, body: Buffer.concat(chunks) }).then(
        async (answer) => res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text()),
        () => res.writeHead(502).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('the sandbox messenger repeats a callback the service did not take', () => {
  let h: ServiceHarness;
  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  const items = async (userKey: string) => (await h.get<{ messages: Item[] }>(`/api/agent/rooms/${userKey}/messages?brand=acme-kakao`)).body.messages;

  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value) || Date.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('POST /sandbox/customers/{userKey}/messages answers ok with seq null and why while it is repeated; the message is journaled once when a repeat gets through', async () => {
    const control = h.service.runtime.sandbox?.control;
    if (!control) throw new Error('the service runs without the in-process sandbox');
    const proxy = await flakyProxy(() => h.url, 1);
    try {
      await control.setPartner({ callbackUrl: `${proxy.url}/upstream` });
      const wrote = await h.post('/sandbox/customers/rae/messages', { brandKey: 'acme-kakao', text: 'is anyone there?' });
      expect([wrote.status, wrote.body]).toEqual([
        200,
        {
          ok: true,
          seq: null,
          pending: "the sandbox messenger's /reference callback got HTTP 503; the messenger repeats it and the service journals it then",
        },
      ]);
      const journal = await until(() => items('rae'), (list) => list.some((i) => i.kind === 'message'));
      expect(journal.filter((i) => i.kind === 'message').map((i) => i.text)).toEqual(['is anyone there?']);
      expect(proxy.refused).toEqual(['/upstream/reference']);
      expect((await h.customerChat('rae')).filter((b) => b.from === 'customer').map((b) => b.text)).toEqual(['is anyone there?']);
      // the consultation the repeat announced is the service's: an agent's send reaches the customer
      const sent = await h.post<{ ok: boolean }>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'rae', text: 'yes, hello' });
      expect([sent.status, sent.body.ok]).toEqual([200, true]);
    } finally {
      await control.setPartner({ callbackUrl: `${h.url}/upstream` });
      await proxy.close();
    }
  });

  it('a clock moved 60 days journals the expiry at the session\'s end (30 days from the next full hour after the last message), not at the move', async () => {
    await h.customerWrites('sol', { text: 'one question' });
    const written = (await items('sol')).find((i) => i.kind === 'message');
    if (!written) throw new Error('the message was not journaled');
    const moved = await h.post<{ ok: boolean; now: number }>('/sandbox/clock', { advanceSeconds: 60 * 24 * 3600 });
    expect(moved.body.ok).toBe(true);
    const expired = (await items('sol')).find((i) => i.kind === 'expired');
    expect(expired?.timestampUnixMs).toBe(sessionExpiresAt(written.timestampUnixMs));
    expect(moved.body.now - (expired?.timestampUnixMs ?? 0)).toBeGreaterThan(29 * 24 * 3600 * 1000);
  });
});
