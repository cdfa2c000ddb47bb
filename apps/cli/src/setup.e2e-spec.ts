import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_TOKENS } from '@brandwire/client/testing';
import { CliSandbox, LAUNCHER } from './test-support/cli';
import { Pty, plain } from './test-support/pty';

describe('setup, whoami and key storage', () => {
  let s: CliSandbox;

  beforeAll(async () => {
    s = await CliSandbox.start();
  });
  afterAll(async () => {
    await s.stop();
  });

  const stored = (config: string) => JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')) as Record<string, unknown>;

  it('verifies and stores a key (file mode 0600), which whoami then uses', async () => {
    const config = s.configDir('stored');
    const setup = await s.run(['setup', TEST_TOKENS.writer, '--endpoint', s.url, '--channel', 'acme-kakao', '--json'], { config, env: { BRANDWIRE_ENDPOINT: undefined } });
    expect(setup.code).toBe(0);
    expect(setup.json()).toEqual({
      ok: true,
      stored: true,
      endpoint: s.url,
      name: 'agent',
      scope: 'BrandWrite',
      channel: 'acme-kakao',
      configPath: join(config, 'config.json'),
      brands: [expect.objectContaining({ id: 'acme' })],
    });
    expect(statSync(join(config, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(config).mode & 0o777).toBe(0o700);
    expect(stored(config)).toEqual({ endpoint: s.url, token: TEST_TOKENS.writer, keyName: 'agent', scope: 'BrandWrite', channel: 'acme-kakao' });

    const whoami = await s.run(['whoami', '--json'], { config, env: { BRANDWIRE_ENDPOINT: undefined } });
    expect(whoami.code).toBe(0);
    expect(whoami.json()).toMatchObject({ ok: true, name: 'agent', scope: 'BrandWrite', endpoint: s.url, channel: 'acme-kakao', brands: [{ id: 'acme', channels: [{ key: 'acme-kakao' }, { key: 'acme-naver' }] }] });

    const text = await s.run(['whoami'], { config, env: { BRANDWIRE_ENDPOINT: undefined } });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('scope:           BrandWrite (read; send, delete, block, upload)');
    expect(text.stdout).toMatch(/Channels by brand:\n.*\n│ BRAND +│ CHANNEL +│ NAME +│ TYPE +│ CONSULTATIONS LEFT │\n│ acme +│ acme-kakao +│ Acme Kakao +│ kakao +│ 1000\/1000 +│\n│ acme +│ acme-naver/);
  });

  it('makes a config folder that existed with wider modes private (0700)', async () => {
    const config = s.configDir('wide');
    mkdirSync(config, { recursive: true });
    chmodSync(config, 0o755);
    expect((await s.run(['setup', TEST_TOKENS.reader, '--endpoint', s.url, '--json'], { config, env: { BRANDWIRE_ENDPOINT: undefined } })).code).toBe(0);
    expect(statSync(config).mode & 0o777).toBe(0o700);
    expect(statSync(join(config, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('stores nothing with --dry-run', async () => {
    const config = s.configDir('dry');
    const setup = await s.run(['setup', TEST_TOKENS.reader, '--dry-run', '--json'], { config });
    expect(setup.code).toBe(0);
    expect(setup.json()).toMatchObject({ ok: true, stored: false, name: 'viewer', scope: 'BrandRead', channel: null });
    expect(existsSync(config)).toBe(false);
    const text = await s.run(['setup', TEST_TOKENS.reader, '--dry-run'], { config });
    expect(text.stdout).toContain('The key is valid (dry run: nothing stored).');
  });

  it('without a key and without a terminal, fails naming the argument (exit 2) and stores nothing', async () => {
    const config = s.configDir('no-tty');
    const run = await s.run(['setup', '--json'], { config, stdin: 'bw_typed_into_a_pipe\n' });
    expect(run.code).toBe(2);
    expect(run.json()).toEqual({
      ok: false,
      error: expect.stringContaining('missing argument <key>: pass the key as `brandwire setup <key>`'),
      code: 'USAGE',
      hint: 'create a key with `brandwire login`, or ask an Admin for one',
    });
    const text = await s.run(['setup'], { config });
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('prompts need a terminal');
    expect(existsSync(config)).toBe(false);
  });

  it('asks for the endpoint, the key (masked) and the default channel on a terminal', async () => {
    const config = s.configDir('tty');
    const pty = new Pty(`${LAUNCHER} setup`, { BRANDWIRE_CONFIG_DIR: config, BRANDWIRE_ENDPOINT: s.url });
    await pty.waitFor(`Service URL (${s.url})`);
    pty.type('\r');
    await pty.waitFor('API key (bw_…)');
    pty.type(`${TEST_TOKENS.writer}\r`);
    await pty.waitFor('Default channel');
    pty.type('\r');
    expect(await pty.exit()).toBe(0);
    expect(plain(pty.output)).toContain(`Stored the key in ${join(config, 'config.json')}.`);
    expect(pty.output).not.toContain(TEST_TOKENS.writer);
    expect(stored(config)).toMatchObject({ endpoint: s.url, token: TEST_TOKENS.writer, channel: 'acme-kakao' });
  });

  it('refuses an unknown key with exit 4 and UNAUTHORIZED, storing nothing', async () => {
    const config = s.configDir('bad-key');
    const run = await s.run(['setup', 'bw_not_a_key_of_this_service', '--json'], { config });
    expect(run.code).toBe(4);
    expect(run.json()).toEqual({ ok: false, error: 'unknown key', code: 'UNAUTHORIZED', status: 401, hint: expect.stringContaining('does not know this key') });
    const text = await s.run(['setup', 'bw_not_a_key_of_this_service'], { config });
    expect(text.code).toBe(4);
    expect(text.stderr).toContain('does not know this key: check that it was copied whole');
    expect(text.stderr).not.toContain('stored key');
    expect(existsSync(config)).toBe(false);
  });

  it('refuses a --channel the key does not have (exit 2), and stores the single channel of a key as default', async () => {
    const config = s.configDir('channels');
    const wrong = await s.run(['setup', TEST_TOKENS.otherBrand, '--channel', 'acme-kakao', '--json'], { config });
    expect(wrong.code).toBe(2);
    expect(wrong.json()).toEqual({ ok: false, error: '--channel acme-kakao is not a channel of this key; it has: globex-kakao', code: 'USAGE' });
    const single = await s.run(['setup', TEST_TOKENS.otherBrand, '--json'], { config });
    expect(single.json()).toMatchObject({ channel: 'globex-kakao' });
  });

  it('stores the sink, CRM and AI flags for the gateway, keeping earlier ones', async () => {
    const config = s.configDir('gateway');
    await s.run(['setup', TEST_TOKENS.writer, '--sink-type', 'slack', '--sink-url', 'https://hooks.slack.test/x', '--ai-provider', 'openai', '--ai-api-key', 'sk-test'], { config });
    const second = await s.run(['setup', TEST_TOKENS.writer, '--brand', 'acme-naver', '--crm-url', 'https://crm.test/api', '--crm-token', 'crm-secret', '--ai-model', 'gpt-x'], { config });
    expect(second.code).toBe(0);
    expect(stored(config)).toMatchObject({
      channel: 'acme-naver',
      gateway: {
        sink: { type: 'slack', url: 'https://hooks.slack.test/x' },
        crm: { url: 'https://crm.test/api', token: 'crm-secret' },
        ai: { provider: 'openai', apiKey: 'sk-test', model: 'gpt-x' },
      },
    });
    expect(second.stdout).not.toContain('crm-secret');
    // a CRM's url often holds its secret in the path: only its origin is shown
    expect(second.stdout).toMatch(/^CRM: +url https:\/\/crm\.test\/…, token set$/m);
    expect(second.stdout).not.toContain('crm.test/api');
    expect(second.stdout).toMatch(/^AI: +provider openai, apiKey set, model gpt-x$/m);
    // a team chat's webhook url is its secret: only its origin is shown
    expect(second.stdout).toMatch(/^team-chat sink: +type slack, url https:\/\/hooks\.slack\.test\/…$/m);
    expect(second.stdout).not.toContain('hooks.slack.test/x');
  });

  it('leaves the stored token behind when the team-chat sink or the CRM moves to another url or type, unless one is given again', async () => {
    const config = s.configDir('gateway-moved');
    const first = await s.run(['setup', TEST_TOKENS.writer, '--sink-type', 'slack', '--sink-url', 'https://hooks.slack.test/x', '--sink-token', 'sinktok', '--crm-url', 'https://crm.test/a', '--crm-token', 'crmtok'], { config });
    expect(first.code).toBe(0);
    const moved = await s.run(['setup', TEST_TOKENS.writer, '--sink-type', 'discord', '--sink-url', 'https://discord.test/api/webhooks/1/t', '--crm-url', 'https://crm.test/b'], { config });
    expect(moved.code).toBe(0);
    expect(moved.stdout).toMatch(/^team-chat sink: +type discord, url https:\/\/discord\.test\/…$/m);
    expect(moved.stdout).toMatch(/^CRM: +url https:\/\/crm\.test\/…$/m);
    expect(stored(config)['gateway']).toEqual({ sink: { type: 'discord', url: 'https://discord.test/api/webhooks/1/t' }, crm: { url: 'https://crm.test/b' } });
    // the same url again keeps a token given since; another type alone leaves it behind too
    await s.run(['setup', TEST_TOKENS.writer, '--sink-token', 'newtok', '--crm-token', 'newcrm'], { config });
    const same = await s.run(['setup', TEST_TOKENS.writer, '--sink-url', 'https://discord.test/api/webhooks/1/t', '--crm-url', 'https://crm.test/b', '--json'], { config });
    expect(same.json()).toMatchObject({ gateway: { sink: { token: 'set' }, crm: { token: 'set' } } });
    const retyped = await s.run(['setup', TEST_TOKENS.writer, '--sink-type', 'webhook', '--json'], { config });
    expect(retyped.json()).toMatchObject({ gateway: { sink: { type: 'webhook' }, crm: { token: 'set' } } });
    expect(stored(config)['gateway']).toEqual({ sink: { type: 'webhook', url: 'https://discord.test/api/webhooks/1/t' }, crm: { url: 'https://crm.test/b', token: 'newcrm' } });
  });

  it('refuses a team-chat type or a sink or CRM url the gateway could not use (exit 2), storing nothing', async () => {
    const config = s.configDir('gateway-refused');
    const bogus = await s.run(['setup', TEST_TOKENS.writer, '--sink-type', 'bogus', '--json'], { config });
    expect(bogus.code).toBe(2);
    expect(bogus.json()).toMatchObject({ ok: false, code: 'USAGE', error: 'Expected --sink-type=bogus to be one of: slack, teams, discord, webhook' });
    const ftp = await s.run(['setup', TEST_TOKENS.writer, '--sink-url', 'ftp://x/secret', '--json'], { config });
    expect({ code: ftp.code, json: ftp.json() }).toEqual({ code: 2, json: { ok: false, code: 'USAGE', error: '--sink-url must be an http or https URL, got ftp:…', hint: 'to stop relaying there, pass --no-sink' } });
    const notUrl = await s.run(['setup', TEST_TOKENS.writer, '--crm-url', 'crm.test/api', '--json'], { config });
    expect(notUrl.json()).toMatchObject({ code: 'USAGE', error: '--crm-url must be an http or https URL, got something that is not a URL' });
    const empty = await s.run(['setup', TEST_TOKENS.writer, '--crm-url', ''], { config });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe('Error: --crm-url must be an http or https URL, got an empty value\nHint: to stop relaying there, pass --no-crm\n');
    expect(existsSync(config)).toBe(false);
  });

  it.each(['--sink-token', '--crm-token', '--ai-model', '--ai-api-key'])('refuses an empty or blank %s (exit 2), storing nothing', async (flag) => {
    const config = s.configDir(`empty${flag}`);
    for (const value of ['', '  ']) {
      const run = await s.run(['setup', TEST_TOKENS.writer, flag, value, '--json'], { config });
      expect({ code: run.code, json: run.json() }).toEqual({ code: 2, json: { ok: false, code: 'USAGE', error: expect.stringMatching(new RegExp(`^Parsing ${flag}; the .+ is empty$`)), hint: 'see --help for the flags and arguments' } });
    }
    expect(existsSync(config)).toBe(false);
  });

  it('refuses a value given to a switch (--dry-run=yes) rather than taking it for the key, storing nothing', async () => {
    const config = s.configDir('switch-value');
    for (const args of [['setup', '--dry-run=yes'], ['setup', TEST_TOKENS.writer, '--no-sink=true']]) {
      const run = await s.run([...args, '--json'], { config });
      const flag = (args[args.length - 1] as string).split('=')[0] as string;
      expect({ args, code: run.code, json: run.json() }).toEqual({ args, code: 2, json: { ok: false, code: 'USAGE', error: `${flag} is a switch and takes no value: leave out "=${(args[args.length - 1] as string).split('=')[1]}"`, hint: 'see --help for the flags and arguments' } });
    }
    expect(existsSync(config)).toBe(false);
  });

  it("removes the team-chat sink, its commands and the CRM with --no-sink, --no-commands and --no-crm, and says how when a stored commands secret does not fit another team chat", async () => {
    const config = s.configDir('gateway-removed');
    const discordKey = 'ab'.repeat(32);
    const discord = ['--sink-type', 'discord', '--sink-url', 'https://discord.test/api/webhooks/1/t'];
    const first = await s.run(['setup', TEST_TOKENS.writer, '--sink-type', 'webhook', '--sink-url', 'https://chat.test/in', '--commands-secret', 'webhook-bearer-0001', '--crm-url', 'https://crm.test/x'], { config });
    expect(first.code).toBe(0);
    const before = stored(config);
    const switched = await s.run(['setup', TEST_TOKENS.writer, ...discord, '--json'], { config });
    expect({ code: switched.code, json: switched.json() }).toEqual({
      code: 1,
      json: {
        ok: false,
        code: 'CONFIG',
        setting: 'gateway.commands.secret',
        error: "the team chat is Discord, whose commands are checked with the application's public key: the stored commands secret (gateway.commands.secret) must be its 64 hex characters (Developer Portal, the application's General Information)",
        hint: "give the team chat's secret with `brandwire setup <key> --commands-secret <secret>`, or remove the commands with `brandwire setup <key> --no-commands`",
      },
    });
    const switchedText = await s.run(['setup', TEST_TOKENS.writer, ...discord], { config });
    expect(switchedText.stderr).toContain("Hint: give the team chat's secret with `brandwire setup <key> --commands-secret <secret>`, or remove the commands with `brandwire setup <key> --no-commands`\n");
    const emptySecret = await s.run(['setup', TEST_TOKENS.writer, '--commands-secret', ''], { config });
    expect({ code: emptySecret.code, stderr: emptySecret.stderr }).toEqual({
      code: 2,
      stderr: "Error: --commands-secret must be at least 16 characters\nHint: to remove the team chat's commands, pass --no-commands\n",
    });
    expect(stored(config)).toEqual(before);

    const withoutCommands = await s.run(['setup', TEST_TOKENS.writer, ...discord, '--no-commands'], { config });
    expect(withoutCommands.code).toBe(0);
    expect(withoutCommands.stdout).toMatch(/^team-chat commands: +none$/m);
    expect(stored(config)['gateway']).toEqual({ sink: { type: 'discord', url: 'https://discord.test/api/webhooks/1/t' }, crm: { url: 'https://crm.test/x' } });

    expect((await s.run(['setup', TEST_TOKENS.writer, '--commands-secret', discordKey], { config })).code).toBe(0);
    const sinkAlone = await s.run(['setup', TEST_TOKENS.writer, '--no-sink', '--json'], { config });
    expect({ code: sinkAlone.code, json: sinkAlone.json() }).toEqual({ code: 2, json: { ok: false, code: 'USAGE', error: "--no-sink would leave the team chat's commands (gateway.commands) without a team chat", hint: 'add --no-commands to remove them too' } });
    const both = await s.run(['setup', TEST_TOKENS.writer, '--no-crm', '--crm-url', 'https://crm.test/y', '--json'], { config });
    expect(both.code).toBe(2);
    expect(both.json()).toMatchObject({ code: 'USAGE', error: expect.stringContaining('--no-crm') });
    expect(stored(config)['gateway']).toEqual({ sink: { type: 'discord', url: 'https://discord.test/api/webhooks/1/t' }, crm: { url: 'https://crm.test/x' }, commands: { secret: discordKey } });

    const off = await s.run(['setup', TEST_TOKENS.writer, '--no-sink', '--no-commands', '--no-crm'], { config });
    expect(off.code).toBe(0);
    expect(off.stdout).toMatch(/^team-chat sink: +none\nCRM: +none\nteam-chat commands: +none$/m);
    expect(stored(config)).not.toHaveProperty('gateway');
  });

  it('stores how the gateway answers with AI: the url, the reply mode and the instructions, refusing values that cannot work', async () => {
    const config = s.configDir('gateway-ai');
    const run = await s.run(
      ['setup', TEST_TOKENS.writer, '--ai-provider', 'anthropic', '--ai-api-key', 'sk-ant', '--ai-url', 'http://127.0.0.1:9/', '--ai-reply', 'suggest', '--ai-instructions', 'Answer in two sentences.', '--json'],
      { config },
    );
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ gateway: { ai: { provider: 'anthropic', apiKey: 'set', url: 'http://127.0.0.1:9', reply: 'suggest', instructions: 'Answer in two sentences.' } } });
    expect(stored(config)).toMatchObject({ gateway: { ai: { apiKey: 'sk-ant', reply: 'suggest' } } });
    const badMode = await s.run(['setup', TEST_TOKENS.writer, '--ai-reply', 'always', '--json'], { config });
    expect(badMode.code).toBe(2);
    expect(badMode.stdout).toContain('Expected --ai-reply=always to be one of: off, suggest, auto');
    const badUrl = await s.run(['setup', TEST_TOKENS.writer, '--ai-url', 'ftp://models.test', '--json'], { config });
    expect(badUrl.code).toBe(2);
    expect(badUrl.json()).toMatchObject({ code: 'USAGE', error: '--ai-url must be an http or https URL, got "ftp://models.test"' });
    expect(stored(config)).toMatchObject({ gateway: { ai: { url: 'http://127.0.0.1:9', reply: 'suggest' } } });
    const withSecret = await s.run(['setup', TEST_TOKENS.writer, '--ai-url', 'https://key:secret@models.test/v1', '--json'], { config });
    expect(withSecret.json()).toMatchObject({ code: 'USAGE', error: '--ai-url must be a base URL without credentials, query or fragment, got "https://models.test/v1…"' });
    // another provider: the stored one's key and url stay behind, the reply mode and instructions stay
    const other = await s.run(['setup', TEST_TOKENS.writer, '--ai-provider', 'ollama', '--json'], { config });
    expect(other.code).toBe(0);
    expect(stored(config)).toMatchObject({ gateway: { ai: { provider: 'ollama', reply: 'suggest', instructions: 'Answer in two sentences.' } } });
    expect((stored(config) as { gateway: { ai: object } }).gateway.ai).not.toHaveProperty('apiKey');
    expect((stored(config) as { gateway: { ai: object } }).gateway.ai).not.toHaveProperty('url');
    // "" leaves no instructions
    const cleared = await s.run(['setup', TEST_TOKENS.writer, '--ai-instructions', '', '--json'], { config });
    expect(cleared.code).toBe(0);
    expect((stored(config) as { gateway: { ai: { instructions?: string } } }).gateway.ai.instructions ?? '').toBe('');
  });

  it('shows the gateway settings a --dry-run would store, secrets only as "set"', async () => {
    const config = s.configDir('gateway-dry');
    const dry = await s.run(['setup', TEST_TOKENS.writer, '--dry-run', '--sink-type', 'slack', '--sink-token', 'xoxb-secret', '--ai-provider', 'ollama', '--json'], { config });
    expect(dry.json()).toMatchObject({ stored: false, gateway: { sink: { type: 'slack', token: 'set' }, ai: { provider: 'ollama' } } });
    expect(dry.stdout).not.toContain('xoxb-secret');
    const text = await s.run(['setup', TEST_TOKENS.writer, '--dry-run', '--sink-type', 'slack', '--sink-token', 'xoxb-secret'], { config });
    expect(text.stdout).toMatch(/^team-chat sink: +type slack, token set$/m);
    expect(text.stdout).not.toContain('xoxb-secret');
    expect(existsSync(config)).toBe(false);
  });

  it('stores the knowledge query port with --query-port, shows it, and refuses a port out of 1..65535 (exit 2)', async () => {
    const config = s.configDir('query-port');
    const dry = await s.run(['setup', TEST_TOKENS.writer, '--query-port', '18790', '--dry-run', '--json'], { config });
    expect({ code: dry.code, json: dry.json() }).toEqual({ code: 0, json: expect.objectContaining({ stored: false, knowledge: { queryPort: 18790 } }) });
    expect((await s.run(['setup', TEST_TOKENS.writer, '--query-port', '18790', '--dry-run'], { config })).stdout).toMatch(/^knowledge query port: +18790$/m);
    expect(existsSync(config)).toBe(false);

    const run = await s.run(['setup', TEST_TOKENS.writer, '--query-port', '18790'], { config });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^knowledge query port: +18790$/m);
    expect(stored(config)).toMatchObject({ knowledge: { queryPort: 18790 } });
    // later setups keep it, and the other knowledge settings stay
    writeFileSync(join(config, 'config.json'), JSON.stringify({ ...stored(config), knowledge: { enabled: true, queryPort: 18790 } }));
    const again = await s.run(['setup', TEST_TOKENS.writer, '--json'], { config });
    expect(again.json()).toMatchObject({ knowledge: { queryPort: 18790 } });
    expect(stored(config)).toMatchObject({ knowledge: { enabled: true, queryPort: 18790 } });

    for (const bad of ['0', '65536', 'x']) {
      const refused = await s.run(['setup', TEST_TOKENS.writer, '--query-port', bad, '--json'], { config });
      expect({ bad, code: refused.code, json: refused.json() }).toEqual({ bad, code: 2, json: { ok: false, code: 'USAGE', error: expect.stringContaining('--query-port'), hint: expect.any(String) } });
    }
    expect(stored(config)).toMatchObject({ knowledge: { enabled: true, queryPort: 18790 } });
    // the team chat's commands come in on another port of the same gateway
    const clash = await s.run(['setup', TEST_TOKENS.writer, '--sink-type', 'webhook', '--sink-url', 'https://chat.test/in', '--commands-secret', 'webhook-bearer-0001', '--commands-port', '18790', '--json'], { config });
    expect({ code: clash.code, json: clash.json() }).toEqual({
      code: 2,
      json: { ok: false, code: 'USAGE', error: "the knowledge query port (knowledge.queryPort) and the team chat's commands port (gateway.commands.port) are both 18790: the gateway needs two ports", hint: 'pass another --query-port or --commands-port' },
    });
    expect(stored(config)).not.toHaveProperty('gateway');
  });

  it('says, when an endpoint ending in /api finds no route, that the tool adds /api itself, and stores nothing', async () => {
    const config = s.configDir('api-endpoint');
    const hint = `(the endpoint ${s.url}/api ends in /api, which the client adds itself: is the service at ${s.url}?)`;
    const run = await s.run(['setup', TEST_TOKENS.writer, '--endpoint', `${s.url}/api`, '--json'], { config });
    expect({ code: run.code, json: run.json() }).toEqual({ code: 1, json: { ok: false, code: 'NO_ROUTE', error: expect.stringMatching(/^Cannot GET \/api\/api\/agent\/me/), status: 404 } });
    expect(String(run.json()['error'])).toContain(hint);
    expect(existsSync(config)).toBe(false);
    // one from the environment (or stored before) gets the same word from every command
    const whoami = await s.run(['whoami', '--json'], { token: TEST_TOKENS.writer, env: { BRANDWIRE_ENDPOINT: `${s.url}/api/` } });
    expect({ code: whoami.code, error: String(whoami.json()['error']) }).toEqual({ code: 1, error: expect.stringContaining(`ends in /api, which the client adds itself: is the service at ${s.url}?`) });
  });

  it("shows the sink, CRM and commands flags in setup's usage as flags that combine", async () => {
    const help = await s.run(['setup', '--help']);
    expect(help.code).toBe(0);
    const usage = help.stdout.slice(help.stdout.indexOf('USAGE'), help.stdout.indexOf('ARGUMENTS')).replace(/\s+/g, ' ');
    expect(usage).not.toContain('|');
    expect(usage).toContain('[--sink-type <type>] [--sink-url <url>] [--sink-token <token>] [--no-sink]');
    expect(usage).toContain('[--query-port <n>]');
  });

  it('lets BRANDWIRE_TOKEN and BRANDWIRE_ENDPOINT override the stored key and endpoint', async () => {
    const config = s.configDir('override');
    await s.run(['setup', TEST_TOKENS.writer], { config });
    const reader = await s.run(['whoami', '--json'], { config, token: TEST_TOKENS.reader });
    expect(reader.json()).toMatchObject({ name: 'viewer' });
    const elsewhere = await s.run(['whoami', '--json'], { config, env: { BRANDWIRE_ENDPOINT: 'http://127.0.0.1:9' } });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.json()).toMatchObject({ ok: false, code: 'NETWORK' });
  });

  it('reports a key refused later with exit 4, and a damaged config file as CONFIG', async () => {
    const config = s.configDir('damaged');
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, 'config.json'), JSON.stringify({ token: 'bw_revoked_or_unknown' }));
    const refused = await s.run(['whoami'], { config });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toBe('Error: unknown key (UNAUTHORIZED)\nHint: the stored key was refused: run `brandwire setup <key>` or `brandwire login` again\n');
    writeFileSync(join(config, 'config.json'), '{ not json');
    const damaged = await s.run(['whoami', '--json'], { config });
    expect(damaged.code).toBe(1);
    expect(damaged.json()).toEqual({ ok: false, error: expect.stringContaining(`${join(config, 'config.json')} is not a valid config file`), code: 'CONFIG', config: 'damaged' });
  });

  it('still shows env with a damaged config file, and setup replaces the file as its error says', async () => {
    const config = s.configDir('replaced');
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, 'config.json'), '[]');
    const env = await s.run(['env', '--json'], { config, env: { BRANDWIRE_ENDPOINT: undefined } });
    expect(env.code).toBe(0);
    expect(env.json()).toMatchObject({ ok: true, endpointSource: 'default', keySource: 'none', configError: expect.stringContaining('is not a valid config file') });
    expect((await s.run(['env'], { config })).stdout).toMatch(/config problem: +.*not a valid config file/);
    const setup = await s.run(['setup', TEST_TOKENS.reader, '--endpoint', s.url, '--json'], { config, env: { BRANDWIRE_ENDPOINT: undefined } });
    expect(setup.code).toBe(0);
    expect(stored(config)).toMatchObject({ endpoint: s.url, token: TEST_TOKENS.reader });
    expect((await s.run(['env', '--json'], { config })).json()).not.toHaveProperty('configError');
  });

  it('leaves a config file it cannot read alone: setup fails with CONFIG, env still shows it', async () => {
    const config = s.configDir('unreadable');
    mkdirSync(config, { recursive: true });
    const file = join(config, 'config.json');
    // a folder where the file should be: unreadable as a file, whoever runs the test (root reads any mode)
    mkdirSync(file);
    const setup = await s.run(['setup', TEST_TOKENS.reader, '--endpoint', s.url, '--json'], { config, env: { BRANDWIRE_ENDPOINT: undefined } });
    expect(setup.code).toBe(1);
    expect(setup.json()).toMatchObject({ ok: false, code: 'CONFIG', error: expect.stringContaining('cannot read') });
    expect(statSync(file).isDirectory()).toBe(true);
    expect((await s.run(['env', '--json'], { config })).json()).toMatchObject({ ok: true, configError: expect.stringContaining('cannot read') });
  });
});
