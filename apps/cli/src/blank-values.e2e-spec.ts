import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCli } from './test-support/cli';

interface ManifestCommand {
  id: string;
  pluginName: string;
  flags: Record<string, { aliases?: string[] } | undefined>;
}

const manifest = JSON.parse(readFileSync(resolve(__dirname, '../oclif.manifest.json'), 'utf8')) as { commands: Record<string, ManifestCommand> };
const withChannel = Object.values(manifest.commands)
  .filter((c) => c.pluginName === '@brandwire/cli' && c.flags['channel'] !== undefined)
  .map((c) => c.id)
  .sort();

/** Nothing listens on port 9: a command that asked the service would fail with NETWORK (exit 1), not USAGE. */
const UNREACHABLE = 'http://127.0.0.1:9';

describe('blank values on the command line are usage errors before the service is asked', () => {
  let dir: string;
  let stored: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'brandwire-blank-'));
    // a key and a default channel stored by setup: a blank --channel must not fall back to it
    stored = join(dir, 'stored');
    mkdirSync(stored);
    writeFileSync(join(stored, 'config.json'), JSON.stringify({ endpoint: UNREACHABLE, token: 'stored-key', channel: 'acme-kakao' }), { mode: 0o600 });
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (args: readonly string[]) => runCli(args, { env: { BRANDWIRE_CONFIG_DIR: stored } });
  const usage = (error: string) => ({ ok: false, error, code: 'USAGE', hint: 'see --help for the flags and arguments' });

  it('covers every command that takes --channel', () => {
    expect(withChannel).toEqual(expect.arrayContaining(['send', 'block', 'rooms', 'history', 'webhook-domain:get', 'setup', 'login', 'knowledge:build', 'upload:file']));
  });

  it.each(withChannel)('refuses an empty or blank --channel, and --brand, in %s (exit 2), never taking the stored default', async (id) => {
    const command = id.split(':');
    // setup takes the key as its argument; schedule set always prints JSON (its --json names a file)
    const rest = id === 'setup' ? ['bw_unused'] : id === 'schedule:set' ? [] : ['--json'];
    for (const [flag, value] of [['--channel', ''], ['--channel', '  '], ['--brand', ''], ['--brand', ' ']] as const) {
      const result = await run([...command, ...rest, flag, value, ...(id === 'setup' ? ['--json'] : [])]);
      expect({ id, flag, value, code: result.code, out: result.json() }).toEqual({ id, flag, value, code: 2, out: usage('Parsing --channel; the brand key of the channel is empty') });
    }
  });

  it('refuses a blank --conv of history (exit 2) instead of listing everything', async () => {
    for (const conv of ['', '  ']) {
      const result = await run(['history', '--conv', conv, '--json']);
      expect({ conv, code: result.code, out: result.json() }).toEqual({ conv, code: 2, out: usage('Parsing --conv; the convId is empty') });
    }
  });

  it('refuses a blank --event of end-with-bot (exit 2)', async () => {
    for (const event of ['', '  ']) {
      const result = await run(['end-with-bot', '--to', 'alice', '--event', event, '--json']);
      expect({ event, code: result.code, out: result.json() }).toEqual({ event, code: 2, out: usage('Parsing --event; the bot event is empty') });
    }
  });

  it('refuses a blank key name and a blank --brand of keys create (exit 2)', async () => {
    for (const name of ['', '  ']) {
      const result = await run(['keys', 'create', name, '--scope', 'BrandRead', '--json']);
      expect({ name, code: result.code, out: result.json() }).toEqual({ name, code: 2, out: usage("the new key's name is empty") });
    }
    const brand = await run(['keys', 'create', 'crm', '--scope', 'BrandRead', '--brand', ' ', '--json']);
    expect({ code: brand.code, out: brand.json() }).toEqual({ code: 2, out: usage('Parsing --brand; the brand id is empty') });
  });

  it('names only the missing name of keys create, without a note about --brand that was not given', async () => {
    const result = await run(['keys', 'create', '--scope', 'BrandRead', '--json']);
    expect({ code: result.code, out: result.json() }).toEqual({ code: 2, out: usage("Missing 1 required arg: <name> (the new key's name, as `keys list` shows it)") });
  });

  it('refuses a blank key id of keys revoke, --url of webhook-domain set and --text of send (exit 2)', async () => {
    for (const blank of ['', '  ']) {
      const revoke = await run(['keys', 'revoke', blank, '--json']);
      expect({ blank, code: revoke.code, out: revoke.json() }).toEqual({ blank, code: 2, out: usage('the key id is empty') });
      const webhook = await run(['webhook-domain', 'set', '--url', blank, '--json']);
      expect({ blank, code: webhook.code, out: webhook.json() }).toEqual({ blank, code: 2, out: usage('Parsing --url; the webhook URL is empty') });
      const send = await run(['send', '--to', 'alice', '--text', blank, '--json']);
      expect({ blank, code: send.code, out: send.json() }).toEqual({ blank, code: 2, out: usage('Parsing --text; the message text is empty') });
    }
  });

  it('refuses an empty --file of send as FILE (exit 2) before anything is sent', async () => {
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '');
    const result = await run(['send', '--to', 'alice', '--file', empty, '--json']);
    expect({ code: result.code, out: result.json() }).toEqual({ code: 2, out: { ok: false, error: `--file ${empty}: the file is empty`, code: 'FILE' } });
  });

  it('refuses an --idempotency-key the service would refuse (exit 2): empty, over 255 characters, or not visible ASCII', async () => {
    for (const key of ['', 'a'.repeat(256), 'with space', 'ключ']) {
      const result = await run(['send', '--to', 'alice', '--text', 'hi', '--idempotency-key', key, '--json']);
      expect({ key, code: result.code, out: result.json() }).toEqual({ key, code: 2, out: usage('Parsing --idempotency-key; the idempotency key must be 1 to 255 visible ASCII characters (no spaces)') });
    }
  });

  it('answers `brandwire end` with the command that ends a consultation, and where a plain end is', async () => {
    const json = await run(['end', '--channel', 'acme-kakao', '--to', 'alice', '--json']);
    expect({ code: json.code, out: json.json() }).toEqual({
      code: 2,
      out: {
        ok: false,
        error: 'the tool ends a consultation with `brandwire end-with-bot` (it hands the customer to a bot scenario); a plain end, with only a greeting, is POST /api/agent/end in the REST API',
        code: 'USAGE',
      },
    });
    const text = await run(['end']);
    expect({ code: text.code, stdout: text.stdout, stderr: text.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: the tool ends a consultation with `brandwire end-with-bot` (it hands the customer to a bot scenario); a plain end, with only a greeting, is POST /api/agent/end in the REST API\n',
    });
  });

  it('describes the keys topic with all of its commands', async () => {
    const help = await runCli(['--help'], { env: { BRANDWIRE_CONFIG_DIR: stored } });
    expect(help.stdout).toMatch(/\n\s+keys\s+Make \(Admin key\), list or revoke the API keys this key manages\n/);
  });
});
