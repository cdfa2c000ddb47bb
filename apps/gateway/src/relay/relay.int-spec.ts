import { mkdtempSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeModel, startFakeModel } from '@brandwire/ai/testing';
import { LiveService, TEST_TOKENS } from '@brandwire/client/testing';
import { ServiceKey } from '../service-key';
import { startRelay } from './relay';
import { RelayCursors } from './relay-cursors';

interface Received {
  id: string;
  kind: string;
  userKey: string;
}

/** A `webhook` team chat that can be down: it refuses (503) every post until `upWhen` says it is back, then takes them in the order they come. */
async function startTeamChat(): Promise<{ url: string; received: Received[]; refused: Received[]; down: (upWhen: (refused: readonly Received[]) => boolean) => void; close: () => Promise<void> }> {
  const received: Received[] = [];
  const refused: Received[] = [];
  let upWhen: ((refused: readonly Received[]) => boolean) | undefined;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as Received;
      if (upWhen && !upWhen(refused)) {
        refused.push(body);
        return res.writeHead(503).end();
      }
      received.push(body);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    refused,
    down: (when) => (upWhen = when),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the relay to a team chat with AI suggestions, against the built service', () => {
  let live: LiveService;
  let model: FakeModel;
  let chat: Awaited<ReturnType<typeof startTeamChat>>;
  let dir: string;

  beforeAll(async () => {
    [live, model, chat] = await Promise.all([LiveService.start(), startFakeModel(), startTeamChat()]);
    dir = mkdtempSync(join(tmpdir(), 'gateway-relay-'));
  });
  afterAll(async () => {
    await Promise.all([live.stop(), model.close(), chat.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('posts a suggestion after the message it answers when the team chat was down and both were tried again', async () => {
    const log: string[] = [];
    const report = (line: string): number => log.push(line);
    const relay = startRelay(
      {
        endpoint: live.url,
        token: TEST_TOKENS.reader,
        targets: [{ name: 'team chat', type: 'webhook', url: chat.url, token: undefined }],
        ai: { mode: 'suggest', model: { provider: 'openai', model: 'gpt-test', apiKey: 'sk-test', url: model.openAiUrl }, instructions: undefined },
      },
      new ServiceKey({ endpoint: live.url, token: TEST_TOKENS.reader, configFile: undefined, needs: { scope: 'BrandRead', why: "read the channels' signals" }, stop: new AbortController().signal }, report),
      new RelayCursors(join(dir, 'relay-cursors.json')),
      report,
    );
    try {
      await until('both relays of acme-kakao to follow its signals', () =>
        ['team chat', 'AI'].every((name) => log.some((line) => line.startsWith(`following the signals of acme-kakao for the ${name} after`))) ? true : undefined,
      );
      model.answerWith('It left Busan today.');
      // back once the customer's first signal (the consultation started) was refused twice: its next try is 2 s
      // away, the suggestion's first retry 1 s
      chat.down((refused) => refused.filter((body) => body.kind === 'reference').length >= 2);
      await live.customerWrites('gina', 'sink is down');

      await until('the consultation, the message and the suggestion', () => (chat.received.length >= 3 ? true : undefined));
      expect(chat.received.map((body) => [body.kind, body.userKey])).toEqual([
        ['reference', 'gina'],
        ['message', 'gina'],
        ['ai_suggestion', 'gina'],
      ]);
      expect(chat.received[2]?.id).toBe(`${chat.received[1]?.id.replace(/\.0$/, '')}.ai`);
    } finally {
      await relay.stop();
    }
  });
});

describe('the relay when the service it followed starts again with fresh data', () => {
  it('says where it stood, the place it kept, and starts at the channel\'s end', async () => {
    const first = await LiveService.start();
    const port = new URL(first.url).port;
    const chat = await startTeamChat();
    const dir = mkdtempSync(join(tmpdir(), 'gateway-relay-'));
    let second: LiveService | undefined;
    const log: string[] = [];
    const report = (line: string): number => log.push(line);
    const cursors = new RelayCursors(join(dir, 'relay-cursors.json'));
    const relay = startRelay(
      { endpoint: first.url, token: TEST_TOKENS.reader, targets: [{ name: 'team chat', type: 'webhook', url: chat.url, token: undefined }] },
      new ServiceKey({ endpoint: first.url, token: TEST_TOKENS.reader, configFile: undefined, needs: { scope: 'BrandRead', why: "read the channels' signals" }, stop: new AbortController().signal }, report),
      cursors,
      report,
    );
    try {
      await until('the relay to follow acme-kakao', () => (log.some((line) => line.startsWith('following the signals of acme-kakao for the team chat after')) ? true : undefined));
      await first.customerWrites('gina', 'sink is down');
      const kept = await until('the message to be relayed', () => (chat.received.some((body) => body.kind === 'message') ? cursors.of(`${first.url} acme-kakao team chat`) : undefined));
      await first.stop();
      second = await LiveService.start({ PORT: port });
      const line = await until('the relay to meet the fresh service', () => log.find((l) => l.startsWith('the team chat relay of acme-kakao stood at')));
      expect(line).toBe(`the team chat relay of acme-kakao stood at ${kept}, past the service's last signal (another service, or one whose data started again): it starts at the channel's end`);
      await second.customerWrites('hana', 'hello again');
      await until("the fresh service's message to be relayed", () => (chat.received.some((body) => body.userKey === 'hana' && body.kind === 'message') ? true : undefined));
    } finally {
      await relay.stop();
      await Promise.all([first.stop(), second?.stop(), chat.close()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
