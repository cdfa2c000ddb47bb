import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { TEST_TOKENS } from '@brandwire/client/testing';
import { type CliRun, CliSandbox } from './test-support/cli';
import { freePort } from './test-support/processes';

interface Received {
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
}

/** A team chat or CRM standing in: records what it is sent; answers `failures` 500s first when told to. */
class Receiver {
  readonly received: Received[] = [];
  failures = 0;
  refusals = 0;
  url = '';
  private readonly server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      if (this.failures > 0) {
        this.failures -= 1;
        res.writeHead(500).end('down');
        return;
      }
      if (this.refusals > 0) {
        this.refusals -= 1;
        res.writeHead(400).end('invalid_payload');
        return;
      }
      this.received.push({ body: JSON.parse(raw) as Record<string, unknown>, headers: req.headers });
      res.writeHead(200).end('ok');
    });
  });

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/in`;
    return receiver;
  }

  async waitFor(count: number): Promise<Received[]> {
    const deadline = Date.now() + 15_000;
    while (this.received.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    return this.received;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

describe('brandwire gateway: relaying signals to a team chat and a CRM', () => {
  let s: CliSandbox;
  let config: string;
  let chat: Receiver;
  let crm: Receiver;
  let logPath: string;

  const cli = (args: readonly string[]): Promise<CliRun> => s.run(args, { config, token: TEST_TOKENS.reader });
  const logText = (): string => readFileSync(logPath, 'utf8');
  const waitForLog = async (pattern: RegExp, from = 0): Promise<void> => {
    const deadline = Date.now() + 15_000;
    while (!pattern.test(logText().slice(from)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logText().slice(from)).toMatch(pattern);
  };
  const lines = (): unknown[] => chat.received.map((r) => r.body['text']);

  beforeAll(async () => {
    s = await CliSandbox.start();
    [chat, crm] = await Promise.all([Receiver.start(), Receiver.start()]);
    config = s.configDir('relay');
    logPath = join(config, 'gateway', 'gateway.log');
    mkdirSync(config, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(config, 'config.json'),
      JSON.stringify({
        knowledge: { queryPort: await freePort() },
        gateway: { sink: { type: 'slack', url: chat.url, token: 'chat-token' }, crm: { url: crm.url, token: 'crm-token' } },
      }),
      { mode: 0o600 },
    );
  });
  afterAll(async () => {
    await cli(['gateway', 'stop', '--timeout', '2']);
    await Promise.all([chat.close(), crm.close()]);
    await s.stop();
  });

  it('needs a key to relay with: without one, start says so (AUTH_REQUIRED) and starts nothing', async () => {
    const keyless = s.configDir('relay-keyless');
    mkdirSync(keyless, { recursive: true, mode: 0o700 });
    writeFileSync(join(keyless, 'config.json'), JSON.stringify({ knowledge: { queryPort: await freePort() }, gateway: { crm: { url: crm.url } } }), { mode: 0o600 });
    const run = await s.run(['gateway', 'start', '--json'], { config: keyless });
    expect(run.code).toBe(4);
    expect(run.json()).toMatchObject({ ok: false, code: 'AUTH_REQUIRED' });
    expect((await s.run(['gateway', 'status', '--json'], { config: keyless })).json()).toMatchObject({ running: false });
  });

  it('refuses to start on an endpoint from the environment that is no URL (CONFIG, naming it) and starts nothing', async () => {
    const run = await s.run(['gateway', 'start', '--json'], { config, token: TEST_TOKENS.reader, env: { BRANDWIRE_ENDPOINT: 'garbage' } });
    expect(run.code).toBe(1);
    expect(run.json()).toMatchObject({ ok: false, code: 'CONFIG', error: 'BRANDWIRE_ENDPOINT must be a URL such as http://127.0.0.1:8080, got "garbage"' });
    expect((await cli(['gateway', 'status', '--json'])).json()).toMatchObject({ running: false });
  });

  it('relays what happens from its start: the customer, the agent, consent (its values to the CRM only), in order', async () => {
    await s.service.customerWrites('rita', 'written before the gateway started');
    const start = await cli(['gateway', 'start', '--json']);
    expect({ code: start.code, stderr: start.stderr }).toEqual({ code: 0, stderr: '' });
    expect(start.json()).toMatchObject({ ok: true, started: true, relays: ['team chat (slack)', 'CRM'] });
    await waitForLog(/following the signals of acme-kakao for the team chat after \d+\n/);
    await waitForLog(/following the signals of acme-kakao for the CRM after \d+\n/);
    // what it relays is what the running daemon does, also once the config has changed since
    const configFile = join(config, 'config.json');
    const stored = readFileSync(configFile, 'utf8');
    writeFileSync(configFile, JSON.stringify({ ...(JSON.parse(stored) as object), gateway: {} }), { mode: 0o600 });
    const again = await cli(['gateway', 'start', '--json']);
    writeFileSync(configFile, stored, { mode: 0o600 });
    expect(again.json()).toMatchObject({ started: false, relays: ['team chat (slack)', 'CRM'] });
    expect((await cli(['gateway', 'status', '--json'])).json()).toMatchObject({ running: true, relays: ['team chat (slack)', 'CRM'] });

    await s.service.customerWrites('rita', 'Where is my parcel?');
    await s.service.call('POST', '/api/agent/send', { brandKey: 'acme-kakao', userKey: 'rita', text: 'It leaves the depot today.' });
    await s.service.call('POST', '/api/agent/personal-info/request', { brandKey: 'acme-kakao', userKey: 'rita' });
    await s.service.call('POST', '/sandbox/customers/rita/consent', { brandKey: 'acme-kakao', nickname: 'Rita', phoneNumber: '010-2222-3333' });

    await chat.waitFor(4);
    expect(lines()).toEqual([
      '[acme-kakao] rita: Where is my parcel?',
      '[acme-kakao] agent → rita: It leaves the depot today.',
      expect.stringMatching(/^\[acme-kakao\] agent → rita: /),
      '[acme-kakao] rita agreed to share their nickname and phone number',
    ]);
    expect(chat.received[0]?.headers['authorization']).toBe('Bearer chat-token');
    expect(JSON.stringify(chat.received)).not.toContain('010-2222-3333');

    const events = (await crm.waitFor(4)).map((r) => r.body);
    expect(events[0]).toEqual({
      id: expect.stringMatching(/^acme-kakao:\d+\.0$/),
      kind: 'message',
      brandKey: 'acme-kakao',
      userKey: 'rita',
      seq: expect.any(Number),
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      text: 'Where is my parcel?',
      line: '[acme-kakao] rita: Where is my parcel?',
    });
    expect(events.map((e) => e['kind'])).toEqual(['message', 'agent', 'agent', 'personal_info']);
    expect(events[3]).toMatchObject({ userKey: 'rita', nickname: 'Rita', phoneNumber: '010-2222-3333' });
    expect(crm.received.map((r) => [r.headers['authorization'], r.headers['idempotency-key']])).toEqual(events.map((e) => ['Bearer crm-token', e['id']]));
  });

  it('goes on after a restart where it stopped: nothing lost, nothing twice', async () => {
    const before = chat.received.length;
    expect((await cli(['gateway', 'stop'])).code).toBe(0);
    await s.service.customerWrites('rita', 'Are you still there?');
    await s.service.customerWrites('sam', 'Hello?');
    // a channel nothing was relayed of yet goes on from where the first start found its end, too
    await s.service.customerWrites('nina', 'Hi from Naver', 'acme-naver');
    const from = logText().length;
    expect((await cli(['gateway', 'start'])).code).toBe(0);
    await waitForLog(/following the signals of acme-kakao for the team chat after \d+\.\d+\n/, from);
    await chat.waitFor(before + 5);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const kakao = lines().slice(before).filter((line) => String(line).startsWith('[acme-kakao]'));
    expect(kakao).toEqual(['[acme-kakao] rita: Are you still there?', '[acme-kakao] sam started a consultation', '[acme-kakao] sam: Hello?']);
    expect(lines().slice(before).filter((line) => String(line).startsWith('[acme-naver]'))).toEqual(['[acme-naver] nina started a consultation', '[acme-naver] nina: Hi from Naver']);
    expect(new Set(crm.received.map((r) => r.headers['idempotency-key'])).size).toBe(crm.received.length);
  });

  it('tries a team chat that fails again until it takes the event, in order, while the CRM goes on', async () => {
    const before = chat.received.length;
    const crmBefore = crm.received.length;
    const from = logText().length;
    chat.failures = 3;
    await s.service.customerWrites('sam', 'first');
    await s.service.customerWrites('sam', 'second');
    await crm.waitFor(crmBefore + 2);
    expect(crm.received.slice(crmBefore).map((r) => r.body['text'])).toEqual(['first', 'second']);
    expect(chat.received.length).toBe(before);
    await chat.waitFor(before + 2);
    expect(lines().slice(before)).toEqual(['[acme-kakao] sam: first', '[acme-kakao] sam: second']);
    expect(logText().slice(from)).toMatch(/relay of acme-kakao:\d+\.0 to the team chat failed \(HTTP 500\); trying again in 1 s\n/);
  });

  it("shows a customer's Slack markup as typed: no channel ping, no disguised link", async () => {
    const before = chat.received.length;
    await s.service.customerWrites('sam', '<!channel> see <https://evil.example/login|your order> & pay');
    await chat.waitFor(before + 1);
    expect(lines().slice(before)).toEqual(['[acme-kakao] sam: &lt;!channel&gt; see &lt;https://evil.example/login|your order&gt; &amp; pay']);
  });

  it('skips an event the team chat refuses as such (400), saying so, and goes on with the next', async () => {
    const before = chat.received.length;
    const from = logText().length;
    chat.refusals = 1;
    await s.service.customerWrites('sam', 'refused one');
    await s.service.customerWrites('sam', 'next one');
    await chat.waitFor(before + 1);
    expect(lines().slice(before)).toEqual(['[acme-kakao] sam: next one']);
    expect(logText().slice(from)).toMatch(/error: the team chat refused acme-kakao:\d+\.0 \(HTTP 400\); it is skipped\n/);
  });

  it('starts at the channel\'s end when its kept place is past the service\'s last signal (another service, or its data started again)', async () => {
    expect((await cli(['gateway', 'stop'])).code).toBe(0);
    const cursorsFile = join(config, 'gateway', 'relay-cursors.json');
    const kept = JSON.parse(readFileSync(cursorsFile, 'utf8')) as Record<string, string>;
    const teamChatKey = Object.keys(kept).find((key) => key.endsWith(' acme-kakao team chat')) ?? '';
    writeFileSync(cursorsFile, JSON.stringify({ ...kept, [teamChatKey]: '999999.0' }));
    const before = chat.received.length;
    const from = logText().length;
    expect((await cli(['gateway', 'start'])).code).toBe(0);
    await waitForLog(/the team chat relay of acme-kakao stood at 999999\.0, past the service's last signal \(another service, or one whose data started again\): it starts at the channel's end\n/, from);
    await waitForLog(/following the signals of acme-kakao for the team chat after \d+\n/, from);
    await s.service.customerWrites('sam', 'after the reset');
    await chat.waitFor(before + 1);
    expect(lines().slice(before)).toEqual(['[acme-kakao] sam: after the reset']);
  });

  it("posts to a team chat that setup moved to another url without the old one's token", async () => {
    expect((await cli(['gateway', 'stop'])).code).toBe(0);
    const moved = await Receiver.start();
    try {
      const setup = await cli(['setup', TEST_TOKENS.reader, '--sink-type', 'webhook', '--sink-url', moved.url, '--json']);
      expect(setup.code).toBe(0);
      const from = existsSync(logPath) ? logText().length : 0;
      expect((await cli(['gateway', 'start'])).code).toBe(0);
      await waitForLog(/following the signals of acme-kakao for the team chat after \d+/, from);
      await s.service.customerWrites('sam', 'to the new team chat');
      const arrived = async (receiver: Receiver): Promise<Received | undefined> => {
        const deadline = Date.now() + 15_000;
        const find = () => receiver.received.find((r) => r.body['text'] === 'to the new team chat');
        while (!find() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        return find();
      };
      const [got, toCrm] = await Promise.all([arrived(moved), arrived(crm)]);
      expect([got?.body['text'], got?.headers['authorization']]).toEqual(['to the new team chat', undefined]);
      expect([toCrm?.body['text'], toCrm?.headers['authorization']]).toEqual(['to the new team chat', 'Bearer crm-token']);
      // what setup showed: the urls by their origin only, the CRM's token (its url unchanged) kept
      expect(setup.json()).toMatchObject({ gateway: { sink: { type: 'webhook', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/…$/) as unknown }, crm: { url: expect.stringMatching(/\/…$/) as unknown, token: 'set' } } });
      expect(setup.stdout).not.toContain(moved.url);
      expect(setup.stdout).not.toContain(crm.url);
    } finally {
      await cli(['gateway', 'stop', '--timeout', '2']);
      await moved.close();
    }
  });
});
