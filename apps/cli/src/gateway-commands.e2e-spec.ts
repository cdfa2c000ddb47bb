import { createHmac, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_TOKENS } from '@brandwire/client/testing';
import { type CliRun, CliSandbox } from './test-support/cli';
import { freePort } from './test-support/processes';

const SLACK_SECRET = 'slack-signing-secret-0001';
const WEBHOOK_SECRET = 'webhook-command-token-0001';
/** The Discord application's key pair: the gateway holds the public key (hex, as the Developer Portal shows it), Discord signs with the private one. */
const DISCORD = generateKeyPairSync('ed25519');
const DISCORD_PUBLIC_KEY = Buffer.from(String(DISCORD.publicKey.export({ format: 'jwk' }).x), 'base64url').toString('hex');

describe("brandwire gateway: the team chat's commands", () => {
  let s: CliSandbox;

  beforeAll(async () => {
    s = await CliSandbox.start();
    await s.service.customerWrites('rita', 'Where is my parcel? <!channel>');
    await s.service.customerWrites('kim', 'Hello from Kakao');
    await s.service.customerWrites('kim', 'Hello from Naver', 'acme-naver');
  });
  afterAll(() => s.stop());

  /** A gateway whose team chat is `type`, taking commands on a port of its own. */
  const gatewayWith = async (name: string, type: string, secret: string): Promise<{ url: string; config: string; cli: (args: readonly string[]) => Promise<CliRun> }> => {
    const config = s.configDir(name);
    mkdirSync(config, { recursive: true, mode: 0o700 });
    const port = await freePort();
    writeFileSync(
      join(config, 'config.json'),
      JSON.stringify({ knowledge: { queryPort: await freePort() }, gateway: { sink: { type, url: 'http://127.0.0.1:9/hook' }, commands: { port, secret } } }),
      { mode: 0o600 },
    );
    const cli = (args: readonly string[]) => s.run(args, { config, token: TEST_TOKENS.writer });
    const start = await cli(['gateway', 'start', '--json']);
    expect({ code: start.code, stderr: start.stderr }).toEqual({ code: 0, stderr: '' });
    expect(start.json()).toMatchObject({ commandsUrl: `http://127.0.0.1:${port}/chat/command` });
    return { url: `http://127.0.0.1:${port}/chat/command`, config, cli };
  };

  describe('from Slack (slash commands, signed)', () => {
    let gateway: Awaited<ReturnType<typeof gatewayWith>>;
    beforeAll(async () => {
      gateway = await gatewayWith('commands-slack', 'slack', SLACK_SECRET);
    });
    afterAll(() => gateway.cli(['gateway', 'stop', '--timeout', '2']));

    const slack = async (typed: string, options: { secret?: string; ageSeconds?: number } = {}): Promise<{ status: number; body: Record<string, unknown> }> => {
      const [command = '', ...words] = typed.split(' ');
      // as Slack's, each request has a trigger_id of its own: two alike are a replay
      const body = new URLSearchParams({ command, text: words.join(' '), user_name: 'jun', team_id: 'T1', channel_id: 'C1', trigger_id: randomUUID() }).toString();
      const timestamp = String(Math.floor(Date.now() / 1000) - (options.ageSeconds ?? 0));
      const signature = `v0=${createHmac('sha256', options.secret ?? SLACK_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
      const response = await fetch(gateway.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': timestamp, 'x-slack-signature': signature },
        body,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    it('shows who a customer is, the customer text escaped for Slack, and is listed by gateway status', async () => {
      expect((await gateway.cli(['gateway', 'status', '--json'])).json()).toMatchObject({ running: true, commandsUrl: gateway.url });
      expect((await gateway.cli(['gateway', 'status'])).stdout).toMatch(new RegExp(`^team-chat commands: +${gateway.url.replace(/[.]/g, '\\.')}$`, 'm'));
      const who = await slack('/cs-who acme-kakao:rita');
      expect(who.status).toBe(200);
      expect(who.body).toEqual({
        // a customer's words are shown to whoever asked only
        response_type: 'ephemeral',
        text: expect.stringMatching(/^rita \(acme-kakao\): consultation in progress \(1 message since it started\); last wrote \d{4}-\d\d-\d\d \d\d:\d\d UTC: "Where is my parcel\? &lt;!channel&gt;"$/),
      });
    });

    it('refuses a request whose signature is wrong or too old, and logs the refusal', async () => {
      expect(await slack('/cs-who rita', { secret: 'another-secret-0000000' })).toEqual({ status: 401, body: { ok: false, code: 'UNAUTHORIZED', message: 'the request is not signed by the team chat' } });
      expect((await slack('/cs-who rita', { ageSeconds: 6 * 60 })).status).toBe(401);
      const unsigned = await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'command=/cs-close&text=rita' });
      expect(unsigned.status).toBe(401);
      expect(readFileSync(join(gateway.config, 'gateway', 'gateway.log'), 'utf8')).toContain('error: a team-chat command request was refused: its signature (or its time) is wrong');
      expect((await s.service.customerChat('rita')).length).toBe(1);
    });

    it('refuses a request sent again as it was (a replay)', async () => {
      const body = new URLSearchParams({ command: '/cs-memo', text: 'acme-kakao:rita once', user_name: 'jun' }).toString();
      const timestamp = String(Math.floor(Date.now() / 1000));
      const headers = {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': `v0=${createHmac('sha256', SLACK_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`,
      };
      expect((await fetch(gateway.url, { method: 'POST', headers, body })).status).toBe(200);
      const again = await fetch(gateway.url, { method: 'POST', headers, body });
      expect([again.status, await again.json()]).toEqual([401, { ok: false, code: 'UNAUTHORIZED', message: 'the request was sent before' }]);
    });

    it('keeps memos (file 0600) and shows them with /cs-who', async () => {
      const memo = await slack('/cs-memo acme-kakao:rita VIP: prefers calls after 6 pm');
      expect(memo.body).toEqual({ response_type: 'in_channel', text: 'memo kept for rita (acme-kakao); /cs-who acme-kakao:rita shows the memos' });
      const who = await slack('/cs-who acme-kakao:rita');
      expect(String(who.body['text'])).toMatch(/\nMemos:\n- \d{4}-\d\d-\d\d \d\d:\d\d UTC jun: once\n- \d{4}-\d\d-\d\d \d\d:\d\d UTC jun: VIP: prefers calls after 6 pm$/);
      const file = join(gateway.config, 'gateway', 'memos.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(join(gateway.config, 'gateway', 'gateway.log'), 'utf8')).not.toContain('prefers calls');
      // a mistake is shown only to whoever typed it
      expect(await slack('/cs-memo acme-kakao:rita')).toEqual({ status: 200, body: { response_type: 'ephemeral', text: "usage: /cs-memo &lt;customer&gt; &lt;memo&gt; (in a customer's thread: /cs-memo &lt;memo&gt;)" } });
    });

    it('finds a customer by name alone when one channel has them, and asks which when several do', async () => {
      expect(String((await slack('/cs-who rita')).body['text'])).toMatch(/^rita \(acme-kakao\): /);
      expect((await slack('/cs-who kim')).body['text']).toBe('kim is a customer of acme-kakao and acme-naver: say which, e.g. /cs-who acme-kakao:kim');
      expect(String((await slack('/cs-who acme-naver:kim')).body['text'])).toMatch(/^kim \(acme-naver\): consultation in progress.*"Hello from Naver"$/);
      expect((await slack('/cs-who nobody')).body).toEqual({ response_type: 'ephemeral', text: "no customer nobody on the channels of the gateway's key (acme-kakao, acme-naver)" });
      expect((await slack('/cs-memo acme-naver:rita a memo for no one')).body).toEqual({ response_type: 'ephemeral', text: 'no customer rita on acme-naver' });
      expect(await slack('/cs-bogus rita')).toEqual({ status: 200, body: { response_type: 'ephemeral', text: 'unknown command "/cs-bogus": /cs-close, /cs-memo, /cs-who' } });
    });

    it('ends a consultation with /cs-close, sending the greeting first, and says when none was in progress', async () => {
      const closed = await slack('/cs-close rita Thank you, goodbye!');
      expect(closed.body).toEqual({ response_type: 'in_channel', text: 'ended the consultation with rita (acme-kakao), after the greeting' });
      expect((await s.service.customerChat('rita')).map((b) => b.text)).toEqual(['Where is my parcel? <!channel>', 'Thank you, goodbye!', 'The consultation has ended.']);
      expect(String((await slack('/cs-who rita')).body['text'])).toMatch(/^rita \(acme-kakao\): no consultation in progress \(it (ended|expired) /);
      expect((await slack('/cs-close rita')).body['text']).toBe('no consultation was in progress with rita (acme-kakao)');
    });
  });

  describe('from a webhook team chat (JSON with a bearer token), in a thread', () => {
    let gateway: Awaited<ReturnType<typeof gatewayWith>>;
    beforeAll(async () => {
      gateway = await gatewayWith('commands-webhook', 'webhook', WEBHOOK_SECRET);
    });
    afterAll(() => gateway.cli(['gateway', 'stop', '--timeout', '2']));

    const post = async (body: unknown, token = WEBHOOK_SECRET): Promise<{ status: number; body: Record<string, unknown> }> => {
      const response = await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    it("takes the customer from the thread, refuses a wrong token, and answers a bad request with 400", async () => {
      const memo = await post({ text: '/cs-memo asked twice about Naver Pay', user: 'ana', thread: 'acme-naver:kim' });
      expect(memo).toEqual({ status: 200, body: { ok: true, text: 'memo kept for kim (acme-naver); /cs-who acme-naver:kim shows the memos' } });
      const who = await post({ text: '/cs-who', thread: 'acme-naver:kim' });
      expect(String(who.body['text'])).toMatch(/^kim \(acme-naver\): consultation in progress[\s\S]*\n- .* ana: asked twice about Naver Pay$/);
      expect((await post({ text: '/cs-who', thread: 'acme-naver:kim' }, 'wrong-token-000000000000')).status).toBe(401);
      expect(await post({ user: 'ana' })).toEqual({ status: 400, body: { ok: false, code: 'BAD_REQUEST', message: 'text (the command typed) is missing' } });
      // a thread that names no customer of the key's channels is refused, never read as words of the command
      expect(await post({ text: '/cs-memo call back tomorrow', thread: 'other-channel:kim' })).toEqual({
        status: 400,
        body: { ok: false, code: 'BAD_REQUEST', message: `the thread "other-channel:kim" names no customer of the channels of the gateway's key (acme-kakao, acme-naver)` },
      });
      // the scheme's name in any case
      const lower = await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `bearer ${WEBHOOK_SECRET}` }, body: JSON.stringify({ text: '/cs-who acme-kakao:kim' }) });
      expect(lower.status).toBe(200);
      expect((await fetch(gateway.url)).status).toBe(405);
      const large = await fetch(gateway.url, { method: 'POST', headers: { authorization: `Bearer ${WEBHOOK_SECRET}` }, body: 'x'.repeat(70_000) });
      expect(large.status).toBe(413);
    });
  });

  describe("from Discord (interactions, signed with the application's key)", () => {
    let gateway: Awaited<ReturnType<typeof gatewayWith>>;
    beforeAll(async () => {
      gateway = await gatewayWith('commands-discord', 'discord', DISCORD_PUBLIC_KEY);
    });
    afterAll(() => gateway.cli(['gateway', 'stop', '--timeout', '2']));

    const interact = async (interaction: object, options: { ageSeconds?: number; signature?: string } = {}): Promise<{ status: number; body: unknown }> => {
      const body = JSON.stringify({ id: randomUUID(), application_id: '1', token: 'interaction-token', version: 1, ...interaction });
      const timestamp = String(Math.floor(Date.now() / 1000) - (options.ageSeconds ?? 0));
      const signature = options.signature ?? sign(null, Buffer.from(timestamp + body), DISCORD.privateKey).toString('hex');
      const response = await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp }, body });
      return { status: response.status, body: await response.json() };
    };
    const slash = (name: string, options: Record<string, string>) => ({
      type: 2,
      data: { id: '9', name, type: 1, options: Object.entries(options).map(([option, value]) => ({ name: option, type: 3, value })) },
      member: { user: { id: '7', username: 'mina' } },
    });

    it('answers its PING, refuses a bad signature or an old one, and runs /cs-memo and /cs-who', async () => {
      expect(await interact({ type: 1 })).toEqual({ status: 200, body: { type: 1 } });
      expect((await interact({ type: 1 }, { signature: 'ab'.repeat(64) })).status).toBe(401);
      expect((await interact({ type: 1 }, { ageSeconds: 6 * 60 })).status).toBe(401);
      expect(readFileSync(join(gateway.config, 'gateway', 'gateway.log'), 'utf8')).toContain('team-chat commands (discord) on');
      const memo = await interact(slash('cs-memo', { customer: 'acme-kakao:kim', memo: 'wants the invoice' }));
      expect(memo).toEqual({ status: 200, body: { type: 4, data: { content: 'memo kept for kim \\(acme-kakao\\); /cs-who acme-kakao:kim shows the memos', allowed_mentions: { parse: [] } } } });
      const who = await interact(slash('cs-who', { customer: 'acme-kakao:kim' }));
      expect(who).toEqual({
        status: 200,
        body: {
          type: 4,
          data: {
            content: expect.stringMatching(/^kim \\\(acme-kakao\\\): consultation in progress.*"Hello from Kakao"\nMemos:\n- .* mina: wants the invoice$/),
            allowed_mentions: { parse: [] },
            flags: 64,
          },
        },
      });
      expect(await interact(slash('cs-who', { customer: 'kim' }))).toEqual({
        status: 200,
        body: { type: 4, data: { content: 'kim is a customer of acme-kakao and acme-naver: say which, e.g. /cs-who acme-kakao:kim', allowed_mentions: { parse: [] }, flags: 64 } },
      });
      expect((await interact({ type: 4, data: { name: 'cs-who', options: [] } })).status).toBe(400);
    });
  });

  it('refuses commands without a team chat, and a secret shorter than 16 characters', async () => {
    const config = s.configDir('commands-no-sink');
    mkdirSync(config, { recursive: true, mode: 0o700 });
    writeFileSync(join(config, 'config.json'), JSON.stringify({ knowledge: { queryPort: await freePort() }, gateway: { commands: { secret: WEBHOOK_SECRET } } }), { mode: 0o600 });
    const run = await s.run(['gateway', 'start', '--json'], { config, token: TEST_TOKENS.writer });
    expect(run.json()).toMatchObject({ ok: false, code: 'CONFIG', error: 'team-chat commands are set (gateway.commands) but no team-chat sink is' });
    const setup = await s.run(['setup', TEST_TOKENS.writer, '--commands-secret', 'short', '--json'], { config });
    expect(setup.code).toBe(2);
    expect(setup.json()).toMatchObject({ code: 'USAGE', error: '--commands-secret must be at least 16 characters' });
  });

  it("refuses a Discord team chat's commands secret that is not the application's public key, in setup and at the gateway's start", async () => {
    const config = s.configDir('commands-discord-secret');
    const sink = ['--sink-type', 'discord', '--sink-url', 'https://discord.com/api/webhooks/1/hook-token'];
    const setup = await s.run(['setup', TEST_TOKENS.writer, ...sink, '--commands-secret', SLACK_SECRET, '--json'], { config });
    expect({ code: setup.code, json: setup.json() }).toMatchObject({
      code: 1,
      json: {
        ok: false,
        code: 'CONFIG',
        setting: 'gateway.commands.secret',
        error: "the team chat is Discord, whose commands are checked with the application's public key: --commands-secret must be its 64 hex characters (Developer Portal, the application's General Information)",
      },
    });
    expect(existsSync(join(config, 'config.json'))).toBe(false);
    const stored = await s.run(['setup', TEST_TOKENS.writer, ...sink, '--commands-secret', DISCORD_PUBLIC_KEY, '--json'], { config });
    expect({ code: stored.code, stderr: stored.stderr }).toEqual({ code: 0, stderr: '' });
    expect(stored.json()).toMatchObject({ gateway: { sink: { type: 'discord', url: 'https://discord.com/…' }, commands: { secret: 'set' } } });
    expect(JSON.parse(readFileSync(join(config, 'config.json'), 'utf8'))).toMatchObject({ gateway: { commands: { secret: DISCORD_PUBLIC_KEY } } });
    // a secret stored by hand (or for another team chat) is refused when the gateway starts
    const edited = JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')) as { gateway: { commands: { secret: string } } };
    edited.gateway.commands.secret = DISCORD_PUBLIC_KEY.slice(2);
    writeFileSync(join(config, 'config.json'), JSON.stringify({ ...edited, knowledge: { queryPort: await freePort() } }), { mode: 0o600 });
    const start = await s.run(['gateway', 'start', '--json'], { config });
    expect({ code: start.code, json: start.json() }).toMatchObject({ code: 1, json: { ok: false, code: 'CONFIG', setting: 'gateway.commands.secret' } });
  });
});
