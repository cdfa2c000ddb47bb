import { writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { imageDir, writeJpeg } from '../../media/test-support/images';
import { ServiceHarness } from '../../test-support/service-harness';

interface Reply {
  ok: boolean;
  code?: string;
  results: Array<{ kind: string; ok: boolean; code: string; serial: string; message?: string }>;
}

/**
 * A messenger that takes image uploads and rich bubbles until `cut`, then drops every connection unanswered,
 * as one that went away in the middle of a send.
 */
async function startVanishingMessenger(): Promise<{ url: string; cutAfterRich: (n: number) => void; close(): Promise<void> }> {
  let richLeft = Number.POSITIVE_INFINITY;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (richLeft <= 0) {
        req.socket.destroy();
        return;
      }
      if (req.url === '/v1/upload/image') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ code: '0000', image: `https://files.messenger.test/${Date.now()}.jpg` }));
        return;
      }
      if (req.url === '/v1/rich') richLeft -= 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 0 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cutAfterRich: (n) => (richLeft = n),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('POST /api/agent/send/attachments when the messenger goes away mid-send', () => {
  let messenger: Awaited<ReturnType<typeof startVanishingMessenger>>;
  let h: ServiceHarness;
  let files: Awaited<ReturnType<typeof imageDir>>;

  beforeAll(async () => {
    messenger = await startVanishingMessenger();
    h = await ServiceHarness.start({ env: { UPSTREAM_URL: messenger.url, UPSTREAM_PARTNER_KEY: 'k' } });
    files = await imageDir();
  });
  afterAll(async () => {
    await h.stop();
    await messenger.close();
    await files.cleanup();
  });

  it('keeps the results and serials of the bubbles delivered before, and fails the rest with UPSTREAM_UNAVAILABLE', async () => {
    const first = await writeJpeg(files.file('first.jpg'), 800, 600);
    const second = await writeJpeg(files.file('second.jpg'), 800, 600);
    const pdf = files.file('after.pdf');
    writeFileSync(pdf, '%PDF-1.4 after');
    messenger.cutAfterRich(1);
    const reply = await h.multipart<Reply>('/api/agent/send/attachments', { brandKey: 'acme-kakao', userKey: 'v1', text: 'Here' }, [
      ['files', first],
      ['files', second],
      ['files', pdf, 'after.pdf', 'application/pdf'],
    ]);
    expect(reply.status).toBe(200);
    expect(reply.body.ok).toBe(true);
    expect(reply.body.results.map((r) => [r.kind, r.ok, r.code])).toEqual([
      ['image', true, '0'],
      ['image', false, 'UPSTREAM_UNAVAILABLE'],
      ['file', false, 'UPSTREAM_UNAVAILABLE'],
    ]);
    expect(new Set(reply.body.results.map((r) => r.serial)).size).toBe(3);
    const items = (await h.get<{ messages: Array<{ kind: string; serial?: string }> }>('/api/agent/rooms/v1/messages?brand=acme-kakao')).body.messages;
    expect(items.filter((m) => m.kind === 'agent').map((m) => m.serial)).toEqual([reply.body.results[0]?.serial]);
  });

  it('answers 502 UPSTREAM_UNAVAILABLE, as any send, when nothing could be delivered', async () => {
    const photo = await writeJpeg(files.file('none.jpg'), 800, 600);
    messenger.cutAfterRich(0);
    const reply = await h.multipart<Reply>('/api/agent/send/attachments', { brandKey: 'acme-kakao', userKey: 'v2' }, [['files', photo]]);
    expect(reply.status).toBe(502);
    expect(reply.body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE' });
  });
});
