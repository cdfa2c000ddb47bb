import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LAUNCHER, RUN_JS, cleanEnv, runCli } from './test-support/cli';

interface ManifestCommand {
  id: string;
  summary?: string;
  description?: string;
  examples?: string[];
  pluginName: string;
}

const manifest = JSON.parse(readFileSync(resolve(__dirname, '../oclif.manifest.json'), 'utf8')) as { commands: Record<string, ManifestCommand> };
const ours = Object.values(manifest.commands).filter((c) => c.pluginName === '@brandwire/cli');

describe('the tool without a service', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'brandwire-basics-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('has every command of the spec, one class per file at the path of its id', () => {
    const ids = ours.map((c) => c.id).sort();
    expect(ids).toEqual(
      [
        'block', 'chat:activate', 'chat:deactivate', 'chatbot', 'delete', 'end-with-bot', 'env', 'gateway:restart', 'gateway:start', 'gateway:status',
        'gateway:stop', 'help', 'history', 'keys:create', 'keys:list', 'keys:revoke', 'knowledge:build', 'knowledge:install', 'knowledge:query', 'knowledge:search', 'knowledge:status', 'knowledge:view',
        'login', 'logout', 'model:list', 'model:set',
        'personal-info', 'profile', 'rooms', 'schedule:get', 'schedule:set', 'send', 'setup', 'sysmsg', 'unblock', 'upload:audio', 'upload:file',
        'upload:image', 'upload:video', 'webhook-domain:get', 'webhook-domain:set', 'whoami',
      ].sort(),
    );
    for (const id of ids) expect(existsSync(resolve(__dirname, 'commands', `${id.replaceAll(':', '/')}.ts`))).toBe(true);
  });

  it('describes every command and gives at least one example with long flags', () => {
    for (const command of ours) {
      expect({ id: command.id, summary: command.summary ?? command.description }).toEqual({ id: command.id, summary: expect.stringMatching(/\w{3}/) });
      expect(command.examples?.length).toBeGreaterThan(0);
      // help takes no flag of its own
      const withFlags = command.id === 'help' || (command.examples ?? []).some((e) => / --[a-z]/.test(e));
      expect({ id: command.id, withFlags }).toEqual({ id: command.id, withFlags: true });
      expect((command.examples ?? []).join(' ')).not.toMatch(/ -[a-z]\b/);
    }
  });

  it('lists the topics, the commands and the exit codes in --help', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/TOPICS\n\s+chat\s.*\n\s+gateway\s(.*\n)+\s+keys\s.*\n\s+knowledge\s(.*\n)+\s+schedule\s.*\n\s+upload\s.*\n\s+webhook-domain\s/);
    expect(help.stdout).toContain('Exit codes: 0 ok, 1 error, 2 usage');
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('3 partly done (some bubbles of a send were not delivered), 4 authentication needed');
    // true as it stands: help is text for people, and autocomplete is oclif's plugin
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('Every command but help and autocomplete takes --json:');
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('(a partly done send: "ok":false, "code":"PARTLY_DONE"; a "hint" when there is one)');
    for (const id of ['setup', 'login', 'logout', 'whoami', 'send', 'rooms', 'autocomplete']) expect(help.stdout).toMatch(new RegExp(`\\n  ${id}\\s`));
  });

  it('shows the help of a command with `help <command>`, as --help does', async () => {
    const viaCommand = await runCli(['help', 'gateway', 'start']);
    const viaFlag = await runCli(['gateway', 'start', '--help']);
    expect(viaCommand.code).toBe(0);
    expect(viaCommand.stdout).toMatch(/^Start the gateway daemon/);
    expect(viaCommand.stdout).toBe(viaFlag.stdout);
    expect((await runCli(['help'])).stdout).toBe((await runCli(['--help'])).stdout);
  });

  it('reports a version with --channel in it (1.2.0 and later; --brand is the name of 1.1 and below)', async () => {
    const version = await runCli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^@brandwire\/cli\/1\.2\.0 /);
  });

  it('prints the version for -v as for --version, through the launcher and bin/run.js', async () => {
    const long = await runCli(['--version']);
    for (const file of [LAUNCHER, RUN_JS]) {
      const short = await runCli(['-v'], {}, file);
      expect({ file, code: short.code, stdout: short.stdout, stderr: short.stderr }).toEqual({ file, code: 0, stdout: long.stdout, stderr: '' });
    }
  });

  it('takes the global --json before the command as well', async () => {
    const env = await runCli(['--json', 'env'], { env: { BRANDWIRE_CONFIG_DIR: dir } });
    expect(env.code).toBe(0);
    expect(env.stdout).toMatch(/^\{"ok":true,[^\n]*\}\n$/);
  });

  it('offers shell completion', async () => {
    const completion = await runCli(['autocomplete', 'script', 'bash'], { env: { BRANDWIRE_CONFIG_DIR: dir, XDG_CACHE_HOME: join(dir, 'cache') } });
    expect(completion.code).toBe(0);
    expect(completion.stdout).toContain('BRANDWIRE_AC_BASH_SETUP_PATH');
  });

  it('shows help for `setup --help` without any side effect', async () => {
    const config = join(dir, 'setup-help');
    const help = await runCli(['setup', '--help'], { env: { BRANDWIRE_CONFIG_DIR: config, BRANDWIRE_ENDPOINT: 'http://127.0.0.1:9' } });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Verify an API key against the service and store it');
    expect(help.stdout).toContain('--dry-run');
    expect(existsSync(config)).toBe(false);
  });

  it('prints env without a key, and its binaryPath and binaryArgs run the tool without a shell', async () => {
    const config = join(dir, 'env');
    const env = await runCli(['env', '--json'], { env: { BRANDWIRE_CONFIG_DIR: config } });
    expect(env.code).toBe(0);
    const result = env.json<{ binaryPath: string; binaryArgs: string[]; launcherPath: string }>();
    expect(result).toEqual({
      ok: true,
      channel: null,
      endpoint: 'http://127.0.0.1:8080',
      endpointSource: 'default',
      keySource: 'none',
      configPath: join(config, 'config.json'),
      binaryPath: process.execPath,
      binaryArgs: [RUN_JS],
      launcherPath: LAUNCHER,
      version: '1.2.0',
      node: process.version,
    });
    const direct = await new Promise<{ code: number | null; out: string }>((done) => {
      const child = spawn(result.binaryPath, [...result.binaryArgs, 'env', '--json'], { env: cleanEnv({ BRANDWIRE_CONFIG_DIR: config }), shell: false });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.on('close', (code) => done({ code, out }));
    });
    expect(direct.code).toBe(0);
    expect(JSON.parse(direct.out)).toEqual(result);

    const text = await runCli(['env'], { env: { BRANDWIRE_CONFIG_DIR: config, BRANDWIRE_ENDPOINT: 'http://10.0.0.1:9000', BRANDWIRE_TOKEN: 'x' } });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('endpoint:    http://10.0.0.1:9000 (from BRANDWIRE_ENDPOINT)');
    expect(text.stdout).toContain('key:         from BRANDWIRE_TOKEN');
    expect(text.stdout).toContain(`config path: ${join(config, 'config.json')}`);
    expect(text.stdout).toContain(`launcher:    ${LAUNCHER}`);
    expect(readdirSync(dir)).not.toContain('env');
  });

  it('needs a key for the commands that call the service: exit 4, AUTH_REQUIRED', async () => {
    const run = await runCli(['whoami', '--json'], { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'none') } });
    expect(run.code).toBe(4);
    expect(run.json()).toEqual({ ok: false, error: expect.stringContaining('brandwire setup <key>'), code: 'AUTH_REQUIRED' });
    const text = await runCli(['rooms', '--channel', 'acme-kakao'], { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'none') } });
    expect(text.code).toBe(4);
    expect(text.stdout).toBe('');
    expect(text.stderr).toContain('Error: no key is stored');
    // the missing key comes before a missing --channel
    for (const args of [['send', '--to', 'alice', '--text', 'hi'], ['delete', '--to', 'alice', '--serial', 's']]) {
      const run = await runCli([...args, '--json'], { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'none') } });
      expect([run.code, run.json<{ code: string }>().code]).toEqual([4, 'AUTH_REQUIRED']);
    }
  });

  it.each([
    [['send', '--to', 'alice', '--text', 'hi', '--nope'], 'Nonexistent flag: --nope', 'see --help for the flags and arguments'],
    [['rooms', '--json'], 'missing --channel: the brand key of the channel, e.g. --channel acme-kakao', '`brandwire whoami` lists the channels'],
    [['rooms', '--channel', 'acme-kakao', '--max', 'many'], 'Parsing --max; Expected an integer but received: many', 'see --help for the flags and arguments'],
    [['delete', '--to', 'a', '--serial', 's', '--text', 't'], 'cannot also be provided', 'see --help for the flags and arguments'],
    [['logout', '--force=yes'], '--force is a switch and takes no value: leave out "=yes"', 'see --help for the flags and arguments'],
    [['knowledge', 'query', 'MATCH (n) RETURN n', '--write=false'], '--write is a switch and takes no value: leave out "=false"', 'see --help for the flags and arguments'],
    [['no-such-command'], 'unknown command "no-such-command": `brandwire --help` lists the commands', undefined],
    [['sned'], 'unknown command "sned": did you mean "send"?', undefined],
    [['chat', 'activte'], 'unknown command "chat activte": did you mean "chat activate"?', undefined],
    [['whoami', 'extra'], '"brandwire whoami" takes no argument "extra": `brandwire whoami --help` shows what it takes', undefined],
    [['gateway', 'status', 'now'], '"brandwire gateway status" takes no argument "now"', undefined],
    [['gateway'], '"brandwire gateway" needs a command: restart, start, status, stop', undefined],
    [['knowledge'], '"brandwire knowledge" needs a command: build, install, query, search, status, view', undefined],
    [[], 'a command is needed: `brandwire --help` lists the commands', undefined],
  ] as Array<[string[], string, string | undefined]>)('reports usage errors as {ok:false, error, code: USAGE} (and the hint, if any) with exit 2: %j', async (args, message, hint) => {
    const run = await runCli([...args, '--json'], { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'none'), BRANDWIRE_TOKEN: 'unused' } });
    expect(run.code).toBe(2);
    expect(run.json()).toEqual({ ok: false, error: expect.stringContaining(message), code: 'USAGE', ...(hint === undefined ? {} : { hint }) });
  });

  it.each([
    [['upload', '--file', 'a.png'], 'upload', 'audio, file, image, video'],
    [['knowledge'], 'knowledge', 'build, install, query, search, status, view'],
    [['schedule'], 'schedule', 'get, set'],
    [['webhook-domain'], 'webhook-domain', 'get, set'],
    [['gateway'], 'gateway', 'restart, start, status, stop'],
    [['chat'], 'chat', 'activate, deactivate'],
    [['keys'], 'keys', 'create, list, revoke'],
  ])('reports a topic without its command as a usage error for people too (exit 2, help on stderr): %j', async (args, topic, commands) => {
    const run = await runCli(args, { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'none') } });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const [first, ...rest] = run.stderr.split('\n');
    expect(first).toBe(`Error: "brandwire ${topic}" needs a command: ${commands}`);
    // the topic's help follows, as `brandwire <topic> --help` prints it on stdout
    const help = await runCli([topic, '--help'], { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'none') } });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(`$ brandwire ${topic} COMMAND`);
    expect(rest.join('\n')).toBe(`\n${help.stdout}`);
  });

  it('still shows the help for a bare `brandwire` and `brandwire help`, exit 0', async () => {
    for (const args of [[], ['help'], ['help', 'knowledge']]) {
      const run = await runCli(args, { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'none') } });
      expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: '' });
      expect(run.stdout).toContain('USAGE');
    }
  });

  it('has no --json form of `help`: a usage error like any other (exit 2), before or after the command', async () => {
    for (const args of [['help', 'send', '--json'], ['--json', 'help', 'send'], ['help', '--json']]) {
      const run = await runCli(args, { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'none') } });
      expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 2, stderr: '' });
      expect(run.json()).toEqual({ ok: false, error: '`brandwire help` prints help for people and has no --json output: leave out --json', code: 'USAGE' });
    }
  });

  it('reports help for a command that does not exist as a usage error naming the words given (exit 2)', async () => {
    for (const [args, words] of [[['help', 'nosuch'], 'nosuch'], [['help', 'send', 'extra'], 'send extra']] as const) {
      const run = await runCli(args, { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'none') } });
      expect({ args, code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ args, code: 2, stdout: '', stderr: `Error: no command or topic "${words}": \`brandwire --help\` lists the commands\n` });
    }
  });

  it('cuts a very long value repeated by an error to its start and length, in JSON and in text', async () => {
    const long = 'x'.repeat(100_000);
    const error = `Parsing --max; Expected an integer but received: ${'x'.repeat(80)}… (100000 characters)`;
    const env = { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'none'), BRANDWIRE_TOKEN: 'unused' } };
    const json = await runCli(['rooms', '--channel', 'acme-kakao', '--max', long, '--json'], env);
    expect({ code: json.code, out: json.json() }).toEqual({ code: 2, out: { ok: false, error, code: 'USAGE', hint: 'see --help for the flags and arguments' } });
    const text = await runCli(['rooms', '--channel', 'acme-kakao', '--max', long], env);
    expect({ code: text.code, stderr: text.stderr }).toEqual({ code: 2, stderr: `Error: ${error}\nHint: see --help for the flags and arguments\n` });
  });

  it('shows the control characters of a value repeated by an error as signs, colour sequences too', async () => {
    const run = await runCli(['send', '--channel', 'acme-kakao', '--to', 'alice', '--file', 'a\u001b[8mhidden\u001b[0m.png'], { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'none'), BRANDWIRE_TOKEN: 'unused' } });
    expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ code: 2, stdout: '', stderr: 'Error: --file a␛[8mhidden␛[0m.png: no such file (FILE)\n' });
  });

  it('shows a command\'s help for -h as for --help', async () => {
    const short = await runCli(['rooms', '-h'], { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'none') } });
    expect(short.code).toBe(0);
    expect(short.stdout).toBe((await runCli(['rooms', '--help'], { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'none') } })).stdout);
    expect(short.stdout).toContain('USAGE');
  });

  it('prints usage errors for people on stderr with a hint, stdout empty', async () => {
    const run = await runCli(['rooms'], { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'none'), BRANDWIRE_TOKEN: 'unused' } });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('Error: missing --channel: the brand key of the channel, e.g. --channel acme-kakao\nHint: `brandwire whoami` lists the channels\n');
  });

  it.each([
    ['send', '--text', 'a'],
    ['delete', '--serial', 's'],
    ['block'],
    ['unblock'],
    ['personal-info'],
    ['end-with-bot'],
    ['rooms'],
    ['history'],
    ['chatbot', '--ask', 'hi'],
  ])('refuses an empty or blank --to before calling the service (exit 2): %s', async (command, ...rest) => {
    for (const to of ['', '  ']) {
      const run = await runCli([command, '--channel', 'acme-kakao', '--to', to, ...rest, '--json'], { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'none'), BRANDWIRE_TOKEN: 'unused', BRANDWIRE_ENDPOINT: 'http://127.0.0.1:9' } });
      expect({ code: run.code, out: run.json() }).toEqual({ code: 2, out: { ok: false, error: "Parsing --to; the customer's key (userKey) is empty", code: 'USAGE', hint: 'see --help for the flags and arguments' } });
    }
  });

  it('reports an unreachable service as NETWORK (exit 1) with a hint about the endpoint', async () => {
    const run = await runCli(['whoami'], { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'none'), BRANDWIRE_TOKEN: 'x', BRANDWIRE_ENDPOINT: 'http://127.0.0.1:9' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('Error: could not reach the service at http://127.0.0.1:9: ECONNREFUSED (NETWORK)\nHint: check --endpoint (or BRANDWIRE_ENDPOINT): `brandwire env` shows the one in use\n');
  });

  it('names where a wrong endpoint came from: BRANDWIRE_ENDPOINT or the config file is CONFIG (exit 1)', async () => {
    const fromEnv = await runCli(['whoami', '--json'], { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'none'), BRANDWIRE_TOKEN: 'x', BRANDWIRE_ENDPOINT: 'ftp://nowhere' } });
    expect({ code: fromEnv.code, out: fromEnv.json() }).toEqual({
      code: 1,
      out: { ok: false, error: 'BRANDWIRE_ENDPOINT must be an http or https URL, got "ftp://nowhere"', code: 'CONFIG', hint: 'set BRANDWIRE_ENDPOINT to the service URL, or unset it to use the stored endpoint' },
    });
    const garbage = await runCli(['whoami'], { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'none'), BRANDWIRE_TOKEN: 'x', BRANDWIRE_ENDPOINT: 'garbage' } });
    expect({ code: garbage.code, stderr: garbage.stderr }).toEqual({
      code: 1,
      stderr: 'Error: BRANDWIRE_ENDPOINT must be a URL such as http://127.0.0.1:8080, got "garbage" (CONFIG)\nHint: set BRANDWIRE_ENDPOINT to the service URL, or unset it to use the stored endpoint\n',
    });
    const configDir = join(dir, 'bad-endpoint');
    mkdirSync(configDir, { recursive: true });
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ endpoint: 'nonsense', token: 'x' }));
    const fromFile = await runCli(['whoami', '--json'], { env: { BRANDWIRE_CONFIG_DIR: configDir } });
    expect({ code: fromFile.code, out: fromFile.json() }).toEqual({
      code: 1,
      out: {
        ok: false,
        error: `the endpoint in ${join(configDir, 'config.json')} must be a URL such as http://127.0.0.1:8080, got "nonsense"`,
        code: 'CONFIG',
        hint: 'pass --endpoint <url> (`setup` and `login` store it), or correct `endpoint` in that file',
      },
    });
    // from the command line it stays a usage error, naming the flag
    const flag = await runCli(['setup', 'k', '--endpoint', 'nonsense', '--json'], { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'none') } });
    expect({ code: flag.code, out: flag.json() }).toEqual({ code: 2, out: { ok: false, error: '--endpoint must be a URL such as http://127.0.0.1:8080, got "nonsense"', code: 'USAGE' } });
  });
});
