import type { BrandwireClient } from '@brandwire/client';
import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCommandServer } from './command-server';
import type { CommandRequest } from './command-request';
import { Memos } from './memos';
import { type CommandOutcome, TeamCommands } from './team-commands';

const SECRET = 'slack-signing-secret-0002';

function signed(text: string, fields: Record<string, string> = {}): { headers: Record<string, string>; body: string } {
  const body = new URLSearchParams({ command: '/cs-close', text, user_name: 'jun\n2026-01-01T00:00:00.000Z gateway stopped', trigger_id: String(Math.random()), ...fields }).toString();
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac('sha256', SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return { headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': timestamp, 'x-slack-signature': signature }, body };
}

async function until(what: string, probe: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('the command server', () => {
  it("answers Slack within its 3 s when the command takes longer, saying it goes on", async () => {
    const seen: CommandRequest[] = [];
    const never = { run: (request: CommandRequest) => (seen.push(request), new Promise<CommandOutcome>(() => undefined)) } as unknown as TeamCommands;
    const server = await startCommandServer({ type: 'slack', port: 0, secret: SECRET }, never, () => undefined);
    try {
      const started = Date.now();
      const { headers, body } = signed('acme-kakao:rita');
      const response = await fetch(server.url, { method: 'POST', headers, body });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(await response.json()).toEqual({ response_type: 'ephemeral', text: '/cs-close is taking longer than Slack waits; it goes on, and /cs-who shows how it ended' });
      expect(seen[0]?.user).toBe('jun\n2026-01-01T00:00:00.000Z gateway stopped');
    } finally {
      await server.close();
    }
  });

  it('logs refusals sparingly: one line for a flood, with the count on the next', async () => {
    const lines: string[] = [];
    const server = await startCommandServer({ type: 'slack', port: 0, secret: SECRET }, {} as TeamCommands, (line) => lines.push(line));
    try {
      for (let i = 0; i < 20; i++) expect((await fetch(server.url, { method: 'POST', body: 'command=/cs-who' })).status).toBe(401);
      expect(lines).toEqual(['error: a team-chat command request was refused: its signature (or its time) is wrong']);
    } finally {
      await server.close();
    }
  });

  describe("from Slack, a command that takes longer than Slack waits answered later at the request's response_url", () => {
    /** Slack's response_url as the gateway posts a later answer there: each request, its type and its body. */
    const startSlackHooks = async (failing?: number): Promise<{ origin: string; received: Array<{ call: string; type: string; body: unknown }>; close: () => Promise<void> }> => {
      const received: Array<{ call: string; type: string; body: unknown }> = [];
      const hooks = createServer((req, res) => {
        let raw = '';
        req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        req.on('end', () => {
          received.push({ call: `${req.method ?? ''} ${req.url ?? ''}`, type: req.headers['content-type'] ?? '', body: raw === '' ? undefined : (JSON.parse(raw) as unknown) });
          if (failing !== undefined) return res.writeHead(failing).end();
          res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        });
      });
      await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
      return {
        origin: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}`,
        received,
        close: () => new Promise<void>((resolve) => (hooks.closeAllConnections(), hooks.close(() => resolve()))),
      };
    };
    const afterMs = (ms: number, outcome: CommandOutcome): Promise<CommandOutcome> => new Promise((resolve) => setTimeout(() => resolve(outcome), ms));
    const ask = async (url: string, command: string, responseUrl: string): Promise<unknown> => {
      const { headers, body } = signed('acme-kakao:rita', { command, response_url: responseUrl });
      const started = Date.now();
      const response = await fetch(url, { method: 'POST', headers, body });
      expect(Date.now() - started).toBeLessThan(3_000);
      return response.json();
    };

    it('acknowledges it at once for the asker only, then posts the answer there: in the channel, or for the asker only', async () => {
      const slack = await startSlackHooks();
      const lines: string[] = [];
      const outcomes: Record<string, CommandOutcome> = {
        '/cs-close': { outcome: 'done', text: 'ended the consultation with rita (acme-kakao) <@U1> & co' },
        '/cs-who': { outcome: 'done', text: 'rita (acme-kakao): consultation in progress', private: true },
        '/cs-memo': { outcome: 'failed', text: '/cs-memo for rita (acme-kakao) failed: UPSTREAM_UNAVAILABLE, down' },
      };
      const slowly = { run: (request: CommandRequest) => afterMs(3_500, outcomes[request.command] as CommandOutcome) } as unknown as TeamCommands;
      const server = await startCommandServer({ type: 'slack', port: 0, secret: SECRET }, slowly, (line) => lines.push(line), { slackResponseOrigin: slack.origin });
      try {
        const answers = await Promise.all(['/cs-close', '/cs-who', '/cs-memo'].map((command) => ask(server.url, command, `${slack.origin}/commands/T1/${command.slice(4)}/secret`)));
        expect(answers).toEqual(['/cs-close', '/cs-who', '/cs-memo'].map((command) => ({ response_type: 'ephemeral', text: `${command} is under way; its answer follows here` })));
        expect(slack.received).toEqual([]);
        await until('the three later answers', () => slack.received.length >= 3);
        expect([...slack.received].sort((a, b) => a.call.localeCompare(b.call))).toEqual([
          { call: 'POST /commands/T1/close/secret', type: 'application/json', body: { response_type: 'in_channel', text: 'ended the consultation with rita (acme-kakao) &lt;@U1&gt; &amp; co' } },
          { call: 'POST /commands/T1/memo/secret', type: 'application/json', body: { response_type: 'ephemeral', text: '/cs-memo for rita (acme-kakao) failed: UPSTREAM_UNAVAILABLE, down' } },
          { call: 'POST /commands/T1/who/secret', type: 'application/json', body: { response_type: 'ephemeral', text: 'rita (acme-kakao): consultation in progress' } },
        ]);
        expect(lines).toEqual([]);
      } finally {
        await server.close();
        await slack.close();
      }
    });

    it("never calls a response_url that is not Slack's, and says instead that the command goes on", async () => {
      const slack = await startSlackHooks();
      const elsewhere = await startSlackHooks();
      const lines: string[] = [];
      const slowly = { run: () => afterMs(3_000, { outcome: 'done', text: 'ended' }) } as unknown as TeamCommands;
      const told = await startCommandServer({ type: 'slack', port: 0, secret: SECRET }, slowly, (line) => lines.push(line), { slackResponseOrigin: slack.origin });
      // unless told, Slack's own https://hooks.slack.com only
      const untold = await startCommandServer({ type: 'slack', port: 0, secret: SECRET }, slowly, (line) => lines.push(line));
      try {
        const answers = await Promise.all([
          ask(told.url, '/cs-close', `${elsewhere.origin}/commands/T1/1/secret`),
          ask(told.url, '/cs-close', `${slack.origin.replace('http:', 'https:')}/commands/T1/2/secret`),
          ask(told.url, '/cs-close', 'not a URL'),
          ask(untold.url, '/cs-close', `${slack.origin}/commands/T1/3/secret`),
        ]);
        expect(answers).toEqual(Array(4).fill({ response_type: 'ephemeral', text: '/cs-close is taking longer than Slack waits; it goes on, and /cs-who shows how it ended' }));
        // the commands are done meanwhile: nothing more is posted anywhere
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect([slack.received, elsewhere.received, lines]).toEqual([[], [], []]);
      } finally {
        await told.close();
        await untold.close();
        await slack.close();
        await elsewhere.close();
      }
    });

    it('tells the asker, before the response_url expires, that the command takes too long and how to see how it ended', async () => {
      const slack = await startSlackHooks();
      const lines: string[] = [];
      const never = { run: () => new Promise<CommandOutcome>(() => undefined) } as unknown as TeamCommands;
      const server = await startCommandServer({ type: 'slack', port: 0, secret: SECRET }, never, (line) => lines.push(line), { slackResponseOrigin: slack.origin, deferredAnswerWithinMs: 1_500 });
      try {
        const asked = Date.now();
        expect(await ask(server.url, '/cs-close', `${slack.origin}/commands/T1/close/secret`)).toEqual({ response_type: 'ephemeral', text: '/cs-close is under way; its answer follows here' });
        await until('the answer that the command takes too long', () => slack.received.length >= 1);
        expect(Date.now() - asked).toBeGreaterThanOrEqual(2_500 + 1_500);
        expect(slack.received).toEqual([
          { call: 'POST /commands/T1/close/secret', type: 'application/json', body: { response_type: 'ephemeral', text: '/cs-close is taking longer than Slack lets the gateway answer; it goes on, and /cs-who shows how it ended' } },
        ]);
        expect(lines).toEqual([]);
      } finally {
        await server.close();
        await slack.close();
      }
    });

    it('logs a later answer Slack did not take, without the response_url', async () => {
      const refusing = await startSlackHooks(500);
      const gone = await startSlackHooks();
      await gone.close();
      const lines: string[] = [];
      const slowly = { run: () => afterMs(3_000, { outcome: 'done', text: 'ended' }) } as unknown as TeamCommands;
      const servers = await Promise.all(
        [refusing, gone].map((slack) => startCommandServer({ type: 'slack', port: 0, secret: SECRET }, slowly, (line) => lines.push(line), { slackResponseOrigin: slack.origin })),
      );
      try {
        await Promise.all([
          ask(servers[0]?.url ?? '', '/cs-close', `${refusing.origin}/commands/T1/close/secret-response-token`),
          ask(servers[1]?.url ?? '', '/cs-memo', `${gone.origin}/commands/T1/memo/secret-response-token`),
        ]);
        await until('the failures to be logged', () => lines.length >= 2);
        expect(lines.sort()).toEqual([
          'error: the later Slack answer to /cs-close could not be given (POST answered HTTP 500): the asker sees only that it is under way; /cs-who shows how the command ended',
          'error: the later Slack answer to /cs-memo could not be given (ECONNREFUSED): the asker sees only that it is under way; /cs-who shows how the command ended',
        ]);
        expect(refusing.received.map((r) => r.call)).toEqual(['POST /commands/T1/close/secret-response-token']);
        expect(lines.join('\n')).not.toMatch(/secret-response-token|127\.0\.0\.1|commands\/T1/);
      } finally {
        await Promise.all(servers.map((server) => server.close()));
        await refusing.close();
      }
    });
  });

  describe("from Discord (interactions signed with the application's Ed25519 key)", () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const publicKeyHex = Buffer.from(String(publicKey.export({ format: 'jwk' }).x), 'base64url').toString('hex');
    let dir: string;
    let url: string;
    let close: () => Promise<void>;
    const lines: string[] = [];
    const asked: string[] = [];

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'bw-discord-'));
      // the service as the gateway's client sees it: one channel, one customer, whose words hold Markdown
      const client = {
        me: () => (asked.push('me'), Promise.resolve({ brands: [{ channels: [{ key: 'acme-kakao' }] }] })),
        messages: ({ userKey }: { userKey: string }) => {
          asked.push(`messages ${userKey}`);
          const messages =
            userKey === 'rita' ? [{ seq: 1, userKey, sessionId: 's', kind: 'message', text: 'Where is **my** parcel? @everyone', timestampUnixMs: Date.UTC(2026, 0, 2, 3, 4) }]
            : userKey === 'kim' ? [{ seq: 2, userKey, sessionId: 't', kind: 'message', text: 'Hello', timestampUnixMs: Date.UTC(2026, 0, 2, 3, 5) }]
            : [];
          return Promise.resolve({ ok: true, brand: 'acme-kakao', userKey, messages });
        },
        end: ({ userKey, greeting }: { userKey: string; greeting?: string }) => (asked.push(`end ${userKey} ${JSON.stringify(greeting)}`), Promise.resolve({ ok: true, sessionId: 't' })),
      } as unknown as BrandwireClient;
      const server = await startCommandServer({ type: 'discord', port: 0, secret: publicKeyHex }, new TeamCommands(() => client, new Memos(join(dir, 'memos.json')), () => undefined), (line) => lines.push(line));
      ({ url, close } = server);
    });
    afterAll(async () => {
      await close();
      rmSync(dir, { recursive: true, force: true });
    });

    const signedHeaders = (body: string, options: { ageSeconds?: number; key?: typeof privateKey } = {}): Record<string, string> => {
      const timestamp = String(Math.floor(Date.now() / 1000) - (options.ageSeconds ?? 0));
      const signature = sign(null, Buffer.from(timestamp + body), options.key ?? privateKey).toString('hex');
      return { 'content-type': 'application/json', 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp };
    };
    const post = async (interaction: object, options: { ageSeconds?: number; key?: typeof privateKey } = {}): Promise<{ status: number; body: unknown }> => {
      // as Discord's, every interaction has an id of its own
      const body = JSON.stringify({ id: String(Math.random()), application_id: '1', token: 'interaction-token', version: 1, ...interaction });
      const response = await fetch(url, { method: 'POST', headers: signedHeaders(body, options), body });
      return { status: response.status, body: await response.json() };
    };
    const slash = (name: string, options: Record<string, string>) => ({
      type: 2,
      data: { id: '9', name, type: 1, options: Object.entries(options).map(([option, value]) => ({ name: option, type: 3, value })) },
      member: { user: { id: '7', username: 'jun\u001b[0m' } },
    });

    it('answers its PING with PONG, and 401 to the deliberately bad signature it checks the endpoint with', async () => {
      expect(await post({ type: 1 })).toEqual({ status: 200, body: { type: 1 } });
      const body = JSON.stringify({ id: '2', type: 1 });
      const headers = signedHeaders(body);
      const bad = await fetch(url, { method: 'POST', headers: { ...headers, 'x-signature-ed25519': `${'0'.repeat(127)}1` }, body });
      expect([bad.status, await bad.json()]).toEqual([401, { ok: false, code: 'UNAUTHORIZED', message: 'the request is not signed by the team chat' }]);
      expect(lines).toEqual(['error: a team-chat command request was refused: its signature (or its time) is wrong']);
    });

    it('answers /cs-who for the asker only and /cs-memo in the channel, Markdown shown as written and no one mentioned', async () => {
      // escape sequences in a memo or a user name go whole: only the text is kept and shown
      const memo = await post(slash('cs-memo', { customer: 'rita', memo: '\u001b[1mVIP_customer\u001b]8;;https://x.example\u0007' }));
      expect(memo).toEqual({ status: 200, body: { type: 4, data: { content: 'memo kept for rita \\(acme-kakao\\); /cs-who acme-kakao:rita shows the memos', allowed_mentions: { parse: [] } } } });
      const who = await post(slash('cs-who', { customer: 'acme-kakao:rita' }));
      expect(who.status).toBe(200);
      expect(who.body).toEqual({
        type: 4,
        data: {
          content: expect.stringMatching(/^rita \\\(acme-kakao\\\): consultation in progress; last wrote 2026-01-02 03:04 UTC: "Where is \\\*\\\*my\\\*\\\* parcel\? @everyone"\nMemos:\n- \d{4}-\d\d-\d\d \d\d:\d\d UTC jun: VIP\\_customer$/),
          allowed_mentions: { parse: [] },
          flags: 64,
        },
      });
      // a mistake is shown only to whoever typed it; an interaction that is not a command is refused
      expect(await post(slash('cs-who', { customer: 'nobody' }))).toEqual({ status: 200, body: { type: 4, data: { content: 'no customer nobody on acme-kakao', allowed_mentions: { parse: [] }, flags: 64 } } });
      expect(await post({ type: 3, data: { custom_id: 'button' } })).toEqual({
        status: 400,
        body: { ok: false, code: 'BAD_REQUEST', message: "the gateway takes Discord's PING (1) and slash commands (2), not interactions of type 3" },
      });
      expect(asked).toContain('messages rita');
    });

    it("takes the customer option whole: a customer holding white space is not split, so no other customer is ended or greeted", async () => {
      const close = await post(slash('cs-close', { customer: 'kim lee', greeting: 'Bye now' }));
      expect(close).toEqual({ status: 200, body: { type: 4, data: { content: 'no customer kim lee on acme-kakao', allowed_mentions: { parse: [] }, flags: 64 } } });
      expect(asked).toContain('messages kim lee');
      expect(asked.filter((call) => call.startsWith('end '))).toEqual([]);
      // the customer named alone is ended, the greeting whole
      const ended = await post(slash('cs-close', { customer: 'acme-kakao:kim', greeting: 'kim  lee, bye' }));
      expect(ended).toEqual({ status: 200, body: { type: 4, data: { content: 'ended the consultation with kim \\(acme-kakao\\), after the greeting', allowed_mentions: { parse: [] } } } });
      expect(asked.filter((call) => call.startsWith('end '))).toEqual(['end kim "kim  lee, bye"']);
    });

    it('refuses an interaction signed more than 5 minutes ago, with another key, or sent again (a replay)', async () => {
      expect((await post({ type: 1 }, { ageSeconds: 6 * 60 })).status).toBe(401);
      expect((await post({ type: 1 }, { key: generateKeyPairSync('ed25519').privateKey })).status).toBe(401);
      const body = JSON.stringify(slash('cs-memo', { customer: 'rita', memo: 'once' }));
      const headers = signedHeaders(body);
      expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(200);
      const again = await fetch(url, { method: 'POST', headers, body });
      expect([again.status, await again.json()]).toEqual([401, { ok: false, code: 'UNAUTHORIZED', message: 'the request was sent before' }]);
      // the same signature in capitals is the same request
      const capitals = await fetch(url, { method: 'POST', headers: { ...headers, 'x-signature-ed25519': headers['x-signature-ed25519']?.toUpperCase() ?? '' }, body });
      expect(capitals.status).toBe(401);
    });

    /** Discord's API as the gateway gives a deferred answer there: each request, and its body. */
    const startDiscordApi = async (failing: { POST?: number; DELETE?: number } = {}): Promise<{ url: string; received: Array<{ call: string; body: unknown }>; close: () => Promise<void> }> => {
      const received: Array<{ call: string; body: unknown }> = [];
      const api = createServer((req, res) => {
        let raw = '';
        req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        req.on('end', () => {
          received.push({ call: `${req.method ?? ''} ${req.url ?? ''}`, body: raw === '' ? undefined : (JSON.parse(raw) as unknown) });
          const failure = failing[req.method as keyof typeof failing];
          if (failure !== undefined) return res.writeHead(failure).end();
          if (req.method === 'DELETE') return res.writeHead(204).end();
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"42"}');
        });
      });
      await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
      return {
        url: `http://127.0.0.1:${(api.address() as AddressInfo).port}/api/v10`,
        received,
        close: () => new Promise<void>((resolve) => (api.closeAllConnections(), api.close(() => resolve()))),
      };
    };

    it("defers a command that takes longer than Discord's 3 s, then edits the answer in, in the channel or for the asker only", async () => {
      const discord = await startDiscordApi();
      const lines: string[] = [];
      const outcomes: Record<string, CommandOutcome> = {
        '/cs-close': { outcome: 'done', text: 'ended the consultation with rita (acme-kakao)' },
        '/cs-who': { outcome: 'done', text: 'rita (acme-kakao): consultation in progress', private: true },
        '/cs-memo': { outcome: 'failed', text: '/cs-memo for rita (acme-kakao) failed: UPSTREAM_UNAVAILABLE, down' },
      };
      const slowly = { run: (request: CommandRequest) => new Promise<CommandOutcome>((resolve) => setTimeout(() => resolve(outcomes[request.command] as CommandOutcome), 3_500)) } as unknown as TeamCommands;
      const slow = await startCommandServer({ type: 'discord', port: 0, secret: publicKeyHex }, slowly, (line) => lines.push(line), { discordApi: discord.url });
      const ask = async (interaction: object, token: string): Promise<unknown> => {
        const body = JSON.stringify({ id: String(Math.random()), application_id: '1234', token, version: 1, ...interaction });
        const started = Date.now();
        const response = await fetch(slow.url, { method: 'POST', headers: signedHeaders(body), body });
        expect(Date.now() - started).toBeLessThan(3_000);
        return response.json();
      };
      try {
        const [close, who, memo] = await Promise.all([
          ask(slash('cs-close', { customer: 'rita' }), 'close-token'),
          ask(slash('cs-who', { customer: 'rita' }), 'who-token'),
          ask(slash('cs-memo', { customer: 'rita', memo: 'call back' }), 'memo-token'),
        ]);
        // DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: Discord shows "thinking…", in the channel or (EPHEMERAL) to the asker only
        expect(close).toEqual({ type: 5 });
        expect(who).toEqual({ type: 5, data: { flags: 64 } });
        expect(memo).toEqual({ type: 5 });
        await until('the three deferred answers', () => discord.received.length >= 4);
        const calls = [...discord.received].sort((a, b) => a.call.localeCompare(b.call));
        expect(calls).toEqual([
          { call: 'DELETE /api/v10/webhooks/1234/memo-token/messages/@original', body: undefined },
          { call: 'PATCH /api/v10/webhooks/1234/close-token/messages/@original', body: { content: 'ended the consultation with rita \\(acme-kakao\\)', allowed_mentions: { parse: [] } } },
          { call: 'PATCH /api/v10/webhooks/1234/who-token/messages/@original', body: { content: 'rita \\(acme-kakao\\): consultation in progress', allowed_mentions: { parse: [] } } },
          // a failure is for the asker only: the answer follows for the asker, then the "thinking…" everyone saw goes
          { call: 'POST /api/v10/webhooks/1234/memo-token', body: { content: '/cs-memo for rita \\(acme-kakao\\) failed: UPSTREAM\\_UNAVAILABLE, down', allowed_mentions: { parse: [] }, flags: 64 } },
        ]);
        expect(discord.received.findIndex((r) => r.call.startsWith('POST'))).toBeLessThan(discord.received.findIndex((r) => r.call.startsWith('DELETE')));
        expect(lines).toEqual([]);
      } finally {
        await slow.close();
        await discord.close();
      }
    });

    it('logs a deferred answer Discord did not take, without the interaction token', async () => {
      const discord = await startDiscordApi();
      await discord.close();
      const lines: string[] = [];
      const slowly = { run: () => new Promise<CommandOutcome>((resolve) => setTimeout(() => resolve({ outcome: 'done', text: 'ended' }), 3_000)) } as unknown as TeamCommands;
      const slow = await startCommandServer({ type: 'discord', port: 0, secret: publicKeyHex }, slowly, (line) => lines.push(line), { discordApi: discord.url });
      try {
        const body = JSON.stringify({ id: '77', application_id: '1234', token: 'secret-interaction-token', version: 1, ...slash('cs-close', { customer: 'rita' }) });
        expect(await (await fetch(slow.url, { method: 'POST', headers: signedHeaders(body), body })).json()).toEqual({ type: 5 });
        await until('the failure to be logged', () => lines.length > 0);
        expect(lines).toEqual([
          expect.stringMatching(/^error: the deferred Discord answer to \/cs-close could not be given \(ECONNREFUSED\): the asker goes on seeing "thinking…" in Discord; \/cs-who shows how the command ended$/) as unknown,
        ]);
        expect(lines.join('\n')).not.toContain('secret-interaction-token');
      } finally {
        await slow.close();
      }
    });

    it('keeps the "thinking…" everyone saw when the answer for the asker could not be given, and says when only its removal failed', async () => {
      const lines: string[] = [];
      const failing = { run: () => new Promise<CommandOutcome>((resolve) => setTimeout(() => resolve({ outcome: 'failed', text: 'down' }), 3_000)) } as unknown as TeamCommands;
      const ask = async (failures: { POST?: number; DELETE?: number }): Promise<string[]> => {
        const discord = await startDiscordApi(failures);
        const slow = await startCommandServer({ type: 'discord', port: 0, secret: publicKeyHex }, failing, (line) => lines.push(line), { discordApi: discord.url });
        try {
          const body = JSON.stringify({ id: String(Math.random()), application_id: '1234', token: 'close-token', version: 1, ...slash('cs-close', { customer: 'rita' }) });
          expect(await (await fetch(slow.url, { method: 'POST', headers: signedHeaders(body), body })).json()).toEqual({ type: 5 });
          await until('the failure to be logged', () => lines.length > 0);
          return discord.received.map((r) => r.call);
        } finally {
          await slow.close();
          await discord.close();
        }
      };
      expect(await ask({ POST: 500 })).toEqual(['POST /api/v10/webhooks/1234/close-token']);
      expect(lines.splice(0)).toEqual(['error: the deferred Discord answer to /cs-close could not be given (POST answered HTTP 500): the asker goes on seeing "thinking…" in Discord; /cs-who shows how the command ended']);
      expect(await ask({ DELETE: 500 })).toEqual(['POST /api/v10/webhooks/1234/close-token', 'DELETE /api/v10/webhooks/1234/close-token/messages/@original']);
      expect(lines).toEqual(['error: the deferred Discord answer to /cs-close was given to the asker, but the "thinking…" in the channel could not be removed (DELETE answered HTTP 500)']);
    });

    it('tells the asker, before the interaction expires, that a deferred command takes too long and how to see how it ended', async () => {
      const discord = await startDiscordApi();
      const lines: string[] = [];
      const never = { run: () => new Promise<CommandOutcome>(() => undefined) } as unknown as TeamCommands;
      const slow = await startCommandServer({ type: 'discord', port: 0, secret: publicKeyHex }, never, (line) => lines.push(line), { discordApi: discord.url, deferredAnswerWithinMs: 4_000 });
      try {
        const asked = Date.now();
        const asking = (['cs-close', 'cs-who'] as const).map(async (name) => {
          const body = JSON.stringify({ id: name, application_id: '1234', token: `${name.slice(3)}-token`, version: 1, ...slash(name, { customer: 'rita' }) });
          return (await fetch(slow.url, { method: 'POST', headers: signedHeaders(body), body })).status;
        });
        expect(await Promise.all(asking)).toEqual([200, 200]);
        await until('the answers that the commands take too long', () => discord.received.length >= 3);
        expect(Date.now() - asked).toBeGreaterThanOrEqual(4_000);
        const tooLong = (command: string): object => ({ content: `${command} is taking longer than Discord lets the gateway answer; it goes on, and /cs-who shows how it ended`, allowed_mentions: { parse: [] } });
        expect([...discord.received].sort((a, b) => a.call.localeCompare(b.call))).toEqual([
          { call: 'DELETE /api/v10/webhooks/1234/close-token/messages/@original', body: undefined },
          { call: 'PATCH /api/v10/webhooks/1234/who-token/messages/@original', body: tooLong('/cs-who') },
          { call: 'POST /api/v10/webhooks/1234/close-token', body: { ...tooLong('/cs-close'), flags: 64 } },
        ]);
        expect(lines).toEqual([]);
      } finally {
        await slow.close();
        await discord.close();
      }
    });
  });
});
