import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { senderKeyOf } from '@brandwire/upstream';
import { ServiceHarness, TOKENS } from '../test-support/service-harness';
import { DEFAULT_SYSTEM_MESSAGES } from './default-system-messages';

interface MessagesReply {
  ok: boolean;
  brand: string;
  source: string;
  messages: { greeting: string; outOfHours: string; autoAnswers: Record<string, string> };
}

const path = (brand: string) => `/api/agent/settings/system-messages?brand=${brand}`;

describe('system messages from the sandbox messenger', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("shows the channel's texts as the messenger keeps them, to any key of the brand", async () => {
    for (const token of [TOKENS.reader, TOKENS.writer, TOKENS.admin]) {
      const reply = await h.get<MessagesReply>(path('acme-kakao'), token);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({
        ok: true,
        brand: 'acme-kakao',
        source: 'messenger',
        messages: {
          greeting: expect.any(String),
          outOfHours: expect.any(String),
          autoAnswers: { S1: expect.any(String), S2: expect.any(String), S3: expect.any(String), S4: expect.any(String) },
        },
      });
    }
  });

  it('follows the wording set on the messenger for that channel only', async () => {
    const control = h.service.runtime.sandbox?.control;
    if (!control) throw new Error('expected the sandbox messenger');
    const before = (await h.get<MessagesReply>(path('acme-naver'), TOKENS.reader)).body.messages;
    const set = await control.setChannel(senderKeyOf('acme-kakao'), {
      type: 'kakao',
      chatbotBuilder: true,
      systemMessages: { greeting: 'Welcome to Acme!', autoAnswers: { S4: 'One moment please.' } },
    });
    expect(set).toEqual({ ok: true });
    const kakao = (await h.get<MessagesReply>(path('acme-kakao'), TOKENS.reader)).body.messages;
    expect(kakao).toMatchObject({ greeting: 'Welcome to Acme!', autoAnswers: { S4: 'One moment please.', S1: before.autoAnswers['S1'] } });
    expect((await h.get<MessagesReply>(path('acme-naver'), TOKENS.reader)).body.messages).toEqual(before);
  });

  it('refuses a key of another brand with 403', async () => {
    const reply = await h.get(path('acme-kakao'), TOKENS.otherBrand);
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ ok: false, code: 'FORBIDDEN' });
  });
});

/** A messenger that is not the sandbox: it has no control API and refuses every partner call with -501. */
async function startRefusingMessenger(): Promise<{ url: string; calls: Array<{ path: string; body: unknown }>; close(): Promise<void> }> {
  const calls: Array<{ path: string; body: unknown }> = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      calls.push({ path: req.url ?? '', body: raw ? (JSON.parse(raw) as unknown) : null });
      if (req.url?.startsWith('/_sandbox')) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ code: -501, message: 'InvalidSenderException' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, calls, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('settings with a messenger that is not the sandbox', () => {
  let messenger: Awaited<ReturnType<typeof startRefusingMessenger>>;
  let h: ServiceHarness;

  beforeAll(async () => {
    messenger = await startRefusingMessenger();
    h = await ServiceHarness.start({ env: { UPSTREAM_URL: messenger.url, UPSTREAM_PARTNER_KEY: 'k' } });
  });
  afterAll(async () => {
    await h.stop();
    await messenger.close();
  });

  it("shows the service's default system messages", async () => {
    const reply = await h.get<MessagesReply>(path('acme-kakao'), TOKENS.reader);
    expect(reply.body).toEqual({ ok: true, brand: 'acme-kakao', source: 'service', messages: DEFAULT_SYSTEM_MESSAGES });
  });

  it('only stores the schedule (the messenger is not called)', async () => {
    const before = messenger.calls.length;
    const schedule = { timeZone: 'Asia/Seoul', weekly: { mon: [{ start: '09:00', end: '18:00' }] } };
    const reply = await h.request('PUT', '/api/agent/settings/schedule', { token: TOKENS.admin, body: { brandKey: 'acme-kakao', schedule } });
    expect(reply.status).toBe(200);
    const read = await h.get<{ schedule: { weekly: Record<string, unknown> } }>('/api/agent/settings/schedule?brand=acme-kakao', TOKENS.reader);
    expect(read.body.schedule.weekly['mon']).toEqual([{ start: '09:00', end: '18:00' }]);
    expect(messenger.calls.slice(before)).toEqual([]);
  });

  it("passes on the messenger's refusal of a chat change (HTTP 200, ok: false, its code) and keeps the state", async () => {
    const reply = await h.post('/api/agent/settings/chat/deactivate', { brandKey: 'acme-kakao' }, TOKENS.admin);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ok: false, code: '-501', message: 'InvalidSenderException', brand: 'acme-kakao', active: true });
    expect(messenger.calls.filter((c) => c.path === '/v1/chat/deactivate')).toEqual([
      { path: '/v1/chat/deactivate', body: { sender_key: senderKeyOf('acme-kakao') } },
    ]);
    expect((await h.get('/api/agent/settings/chat?brand=acme-kakao', TOKENS.reader)).body).toEqual({ ok: true, brand: 'acme-kakao', active: true });
  });
});
