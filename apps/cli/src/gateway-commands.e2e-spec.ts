import { createHmac, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_TOKENS } from '@brandwire/client/testing';
import { type CliRun, CliSandbox } from './test-support/cli';
import { freePort } from './test-support/processes';

const SLACK_SECRET = 'slack-signing-secret-0001';
const WEBHOOK_SECRET = 'webhook-command-token-0001';

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
        text: expect.stringMatching(/^rita \(acme-kakao\): consultation in progress \(1 messages since it started\); last wrote \d{4}-\d\d-\d\d \d\d:\d\d UTC: "Where is my parcel\? &lt;!channel&gt;"$/),
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
});
