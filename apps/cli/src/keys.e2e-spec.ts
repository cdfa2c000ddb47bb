import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiKeyInfo as ListedKey } from '@brandwire/client';
import { TEST_SEED, TEST_TOKENS } from '@brandwire/client/testing';
import { CliSandbox } from './test-support/cli';
import { startHoldingProxy } from './test-support/holding-proxy';
import { freePort } from './test-support/processes';

/** Keys of their own for the tests that revoke one, so that the seed's keys stay for the others. */
const EXTRA = {
  victim: { token: 'keys-test-victim-token-000001', name: 'temp-reader', scope: 'BrandRead', brands: ['acme'] },
  selfRevoking: { token: 'keys-test-self-token-00000001', name: 'self-writer', scope: 'BrandWrite', brands: ['acme'] },
  laptop: { token: 'keys-test-laptop-token-000001', name: 'laptop', scope: 'BrandWrite', brands: ['acme'] },
  oldLaptop: { token: 'keys-test-old-laptop-token-01', name: 'old-laptop', scope: 'BrandRead', brands: ['acme'] },
  offline: { token: 'keys-test-offline-token-00001', name: 'offline-laptop', scope: 'BrandRead', brands: ['acme'] },
  shared: { token: 'keys-test-shared-token-000001', name: 'shared', scope: 'BrandRead', brands: ['acme'] },
  twin: { token: 'keys-test-twin-token-00000001', name: 'twin', scope: 'BrandRead', brands: ['acme'] },
  storedAside: { token: 'keys-test-stored-token-000001', name: 'stored-laptop', scope: 'BrandWrite', brands: ['acme'] },
  bystander: { token: 'keys-test-bystander-token-001', name: 'bystander', scope: 'BrandRead', brands: ['acme'] },
  relaying: { token: 'keys-test-relaying-token-0001', name: 'relaying-laptop', scope: 'BrandWrite', brands: ['acme'] },
  unanswered: { token: 'keys-test-unanswered-token-01', name: 'train-laptop', scope: 'BrandRead', brands: ['acme'] },
  unansweredForced: { token: 'keys-test-unanswered-token-02', name: 'tunnel-laptop', scope: 'BrandRead', brands: ['acme'] },
  unansweredText: { token: 'keys-test-unanswered-token-03', name: 'ferry-laptop', scope: 'BrandRead', brands: ['acme'] },
} as const;

const ISO_WITH_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d$/;

describe('keys list, keys revoke and logout against the service', () => {
  let s: CliSandbox;
  let seedDir: string;

  beforeAll(async () => {
    seedDir = mkdtempSync(join(tmpdir(), 'brandwire-keys-seed-'));
    const seed = join(seedDir, 'seed.json');
    writeFileSync(seed, JSON.stringify({ ...TEST_SEED, keys: [...TEST_SEED.keys, ...Object.values(EXTRA)] }));
    s = await CliSandbox.start({ BRANDWIRE_SEED: seed });
  });
  afterAll(async () => {
    await s.stop();
    rmSync(seedDir, { recursive: true, force: true });
  });

  /** The keys an Admin key of acme lists, by name. */
  async function idOf(name: string): Promise<string> {
    const run = await s.run(['keys', 'list', '--json'], { token: TEST_TOKENS.admin });
    const key = run.json<{ keys: ListedKey[] }>().keys.find((k) => k.name === name);
    if (!key) throw new Error(`no key ${name}: ${run.stdout}`);
    return key.id;
  }

  /** Stores a key as a person does (setup), with a default channel and a gateway setting that logout must keep. */
  async function store(config: string, token: string): Promise<void> {
    const setup = await s.run(['setup', token, '--channel', 'acme-kakao', '--query-port', '8795', '--json'], { config });
    expect([setup.code, setup.stderr]).toEqual([0, '']);
  }

  function storedConfig(config: string): Record<string, unknown> {
    return JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')) as Record<string, unknown>;
  }

  const mode = (config: string) => statSync(join(config, 'config.json')).mode & 0o777;
  const serviceStatus = async (token: string) => (await s.service.call('GET', '/api/agent/me', undefined, token)).status;

  it('lists to an Admin key the keys of its brands (--json: the service answer as it is), the one in use marked', async () => {
    const json = await s.run(['keys', 'list', '--json'], { token: TEST_TOKENS.admin });
    expect([json.code, json.stderr]).toEqual([0, '']);
    const reply = json.json<{ ok: boolean; keys: ListedKey[] }>();
    expect(Object.keys(reply)).toEqual(['ok', 'keys']);
    expect(reply.ok).toBe(true);
    // oldest first; the seed's keys are made within a millisecond or so, and among those of one millisecond the order is their ids'
    expect(reply.keys.map((k) => k.name).sort()).toEqual(['ops', 'agent', 'viewer', ...Object.values(EXTRA).map((k) => k.name)].sort());
    const times = reply.keys.map((k) => Date.parse(k.createdAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const ops = reply.keys.find((k) => k.name === 'ops') as ListedKey;
    expect(ops).toEqual({ id: expect.stringMatching(/^key_[0-9a-f]{16}$/), name: 'ops', scope: 'Admin', brands: ['acme'], createdAt: expect.stringMatching(ISO_WITH_OFFSET), current: true });
    expect(reply.keys.filter((k) => k.current).map((k) => k.name)).toEqual(['ops']);
    expect(json.stdout).not.toContain(TEST_TOKENS.writer);

    const text = await s.run(['keys', 'list'], { token: TEST_TOKENS.admin });
    expect([text.code, text.stderr]).toEqual([0, '']);
    expect(text.stdout).toMatch(/│ +│ ID +│ NAME +│ SCOPE +│ BRANDS │ CREATED +│\n/);
    expect(text.stdout).toMatch(new RegExp(`│ \\* │ ${ops.id} │ ops +│ Admin +│ acme +│ \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d [+-]\\d\\d:\\d\\d │\n`));
    expect(text.stdout).toMatch(new RegExp(`│   │ ${reply.keys.find((k) => k.name === 'agent')?.id} │ agent +│ BrandWrite │ acme +│`));
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe('* the key in use');
    expect(text.stdout).not.toContain(TEST_TOKENS.admin);
  });

  it('lists to a reader key only itself, saying so', async () => {
    const json = await s.run(['keys', 'list', '--json'], { token: TEST_TOKENS.reader });
    expect(json.code).toBe(0);
    expect(json.json()).toEqual({ ok: true, keys: [{ id: expect.stringMatching(/^key_/), name: 'viewer', scope: 'BrandRead', brands: ['acme'], createdAt: expect.stringMatching(ISO_WITH_OFFSET), current: true }] });
    const text = await s.run(['keys', 'list'], { token: TEST_TOKENS.reader });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/│ \* │ key_\w+ │ viewer │ BrandRead │ acme +│/);
    expect(text.stdout).not.toContain(' ops ');
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe('* the key in use (a BrandRead key lists only itself; an Admin key also the keys of its brands)');
  });

  it('makes a key with an Admin key (its token shown once), for every brand of the key unless --brand says', async () => {
    const json = await s.run(['keys', 'create', 'crm-sync', '--scope', 'BrandWrite', '--json'], { token: TEST_TOKENS.admin });
    expect([json.code, json.stderr]).toEqual([0, '']);
    const made = json.json<ListedKey & { ok: boolean; token: string }>();
    expect(made).toEqual({ ok: true, id: expect.stringMatching(/^key_[0-9a-f]{16}$/), name: 'crm-sync', scope: 'BrandWrite', brands: ['acme'], createdAt: expect.stringMatching(ISO_WITH_OFFSET), current: false, token: expect.stringMatching(/^bw_/) });
    expect(await serviceStatus(made.token)).toBe(200);

    const text = await s.run(['keys', 'create', 'auditor', '--scope', 'BrandRead', '--brand', 'acme'], { token: TEST_TOKENS.admin });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Made key key_[0-9a-f]{16} \(auditor, BrandRead, brands acme\)\. Its token, shown only now:\nbw_\S+\n$/);
    const token = text.stdout.trim().split('\n').at(-1) ?? '';
    expect(await serviceStatus(token)).toBe(200);
  });

  it('refuses to make a key from a key below Admin, for a brand the key lacks, or with no such scope', async () => {
    const reader = await s.run(['keys', 'create', 'x', '--scope', 'BrandRead', '--json'], { token: TEST_TOKENS.reader });
    expect([reader.code, reader.json<{ code: string }>().code]).toEqual([1, 'FORBIDDEN']);
    const foreign = await s.run(['keys', 'create', 'x', '--scope', 'BrandRead', '--brand', 'globex', '--json'], { token: TEST_TOKENS.admin });
    expect([foreign.code, foreign.json<{ error: string }>().error]).toEqual([1, 'this key has no access to brand "globex"']);
    const scope = await s.run(['keys', 'create', 'x', '--scope', 'Root', '--json'], { token: TEST_TOKENS.admin });
    expect([scope.code, scope.json<{ code: string }>().code]).toEqual([2, 'USAGE']);
  });

  it('refuses a channel key given to keys create --brand, naming the brand id it belongs to (exit 2), making no key', async () => {
    const before = (await s.run(['keys', 'list', '--json'], { token: TEST_TOKENS.admin })).json<{ keys: ListedKey[] }>().keys.length;
    const run = await s.run(['keys', 'create', 'kakao-only', '--scope', 'BrandRead', '--brand', 'acme', '--brand', 'acme-kakao', '--json'], { token: TEST_TOKENS.admin });
    expect({ code: run.code, out: run.json() }).toEqual({
      code: 2,
      out: {
        ok: false,
        error: '--brand acme-kakao is a channel key, not a brand id: keys are made for brands, and acme-kakao belongs to brand acme',
        code: 'USAGE',
        hint: 'pass --brand acme; `brandwire whoami` lists the brands and their channels',
      },
    });
    expect((await s.run(['keys', 'list', '--json'], { token: TEST_TOKENS.admin })).json<{ keys: ListedKey[] }>().keys.length).toBe(before);
    // the name may also come after --brand
    const after = await s.run(['keys', 'create', '--scope', 'BrandRead', '--brand', 'acme', 'named-after', '--json'], { token: TEST_TOKENS.admin });
    expect({ code: after.code, name: after.json<ListedKey>().name, brands: after.json<ListedKey>().brands }).toEqual({ code: 0, name: 'named-after', brands: ['acme'] });
  });

  it('needs a key to list: AUTH_REQUIRED, exit 4', async () => {
    const run = await s.run(['keys', 'list', '--json'], { config: s.configDir('keys-none') });
    expect(run.code).toBe(4);
    expect(run.json()).toEqual({ ok: false, error: expect.stringContaining('no key is stored'), code: 'AUTH_REQUIRED' });
  });

  it('lets an Admin key revoke another key, which the service refuses from then on; a second time is NOT_FOUND', async () => {
    const id = await idOf('temp-reader');
    expect(await serviceStatus(EXTRA.victim.token)).toBe(200);
    const revoke = await s.run(['keys', 'revoke', id], { token: TEST_TOKENS.admin });
    expect([revoke.code, revoke.stdout, revoke.stderr]).toEqual([0, `Revoked key ${id} (temp-reader).\n`, '']);

    const refused = await s.run(['whoami', '--json'], { token: EXTRA.victim.token });
    expect(refused.code).toBe(4);
    expect(refused.json()).toEqual({ ok: false, error: expect.any(String), code: 'UNAUTHORIZED', status: 401, hint: 'the key in BRANDWIRE_TOKEN was refused: set it to a key of this service, or unset it to use the stored key' });
    expect(await serviceStatus(EXTRA.victim.token)).toBe(401);
    expect((await s.run(['keys', 'list', '--json'], { token: TEST_TOKENS.admin })).json<{ keys: ListedKey[] }>().keys.map((k) => k.id)).not.toContain(id);

    const again = await s.run(['keys', 'revoke', id, '--json'], { token: TEST_TOKENS.admin });
    expect(again.code).toBe(1);
    expect(again.json()).toEqual({ ok: false, error: `no key "${id}" among the keys this key manages (GET /api/agent/keys lists them)`, code: 'NOT_FOUND', status: 404 });
  });

  it('prints the service answer with --json, forgotten false for another key', async () => {
    const id = await idOf('shared');
    const run = await s.run(['keys', 'revoke', id, '--json'], { token: TEST_TOKENS.admin });
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.json()).toEqual({ ok: true, id, name: 'shared', revoked: true, self: false, forgotten: false, gateway: null });
  });

  it('refuses a reader revoking another key: FORBIDDEN, exit 1, the key untouched', async () => {
    const id = await idOf('agent');
    const json = await s.run(['keys', 'revoke', id, '--json'], { token: TEST_TOKENS.reader });
    expect(json.code).toBe(1);
    const viewer = await s.run(['keys', 'list', '--json'], { token: TEST_TOKENS.reader });
    const viewerId = viewer.json<{ keys: ListedKey[] }>().keys[0]?.id;
    expect(json.json()).toEqual({
      ok: false,
      error: `this key has scope BrandRead: it may revoke only itself (its id is ${viewerId}); revoking another key needs an Admin key`,
      code: 'FORBIDDEN',
      status: 403,
      hint: expect.stringContaining('`brandwire whoami` shows what it may do'),
    });
    const text = await s.run(['keys', 'revoke', id], { token: TEST_TOKENS.reader });
    expect([text.code, text.stdout]).toEqual([1, '']);
    expect(text.stderr).toContain('Error: this key has scope BrandRead: it may revoke only itself');
    expect(text.stderr).toContain('(FORBIDDEN)');
    expect(await serviceStatus(TEST_TOKENS.writer)).toBe(200);
  });

  it('takes exactly one key id: USAGE, exit 2', async () => {
    const run = await s.run(['keys', 'revoke', '--json'], { token: TEST_TOKENS.admin });
    expect(run.code).toBe(2);
    expect(run.json()).toEqual({ ok: false, error: expect.stringContaining('Missing 1 required arg: <id>'), code: 'USAGE', hint: 'see --help for the flags and arguments' });
  });

  it('revokes its own stored key and forgets it as logout does, keeping the other settings', async () => {
    const config = s.configDir('self-revoking');
    await store(config, EXTRA.selfRevoking.token);
    const id = await idOf('self-writer');
    const run = await s.run(['keys', 'revoke', id], { config });
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toBe(`Revoked key ${id} (self-writer). It was the key this tool uses: removed it from ${join(config, 'config.json')}.\n`);
    expect(storedConfig(config)).toEqual({ endpoint: s.url, channel: 'acme-kakao', knowledge: { queryPort: 8795 } });
    expect(mode(config)).toBe(0o600);
    expect(await serviceStatus(EXTRA.selfRevoking.token)).toBe(401);
    const whoami = await s.run(['whoami', '--json'], { config });
    expect([whoami.code, whoami.json<{ code: string }>().code]).toEqual([4, 'AUTH_REQUIRED']);
  });

  it('revokes the stored key with another key from BRANDWIRE_TOKEN and forgets it; a stored key that is another one, or unknown to the service, stays', async () => {
    const config = s.configDir('revoke-stored-aside');
    const configFile = join(config, 'config.json');
    // a stored key the service does not know is not the one revoked
    await store(config, EXTRA.storedAside.token);
    writeFileSync(configFile, JSON.stringify({ ...storedConfig(config), token: 'not-a-key-of-this-service' }), { mode: 0o600 });
    const bystander = await idOf('bystander');
    const other = await s.run(['keys', 'revoke', bystander, '--json'], { config, token: TEST_TOKENS.admin });
    expect([other.code, other.stderr]).toEqual([0, '']);
    expect(other.json()).toEqual({ ok: true, id: bystander, name: 'bystander', revoked: true, self: false, forgotten: false, gateway: null });
    expect(storedConfig(config)).toHaveProperty('token', 'not-a-key-of-this-service');

    await store(config, EXTRA.storedAside.token);
    const id = await idOf('stored-laptop');
    const json = await s.run(['keys', 'revoke', id, '--json'], { config, token: TEST_TOKENS.admin });
    expect([json.code, json.stderr]).toEqual([0, '']);
    expect(json.json()).toEqual({ ok: true, id, name: 'stored-laptop', revoked: true, self: false, forgotten: true, gateway: null });
    expect(storedConfig(config)).toEqual({ endpoint: s.url, channel: 'acme-kakao', knowledge: { queryPort: 8795 } });
    expect(mode(config)).toBe(0o600);
    expect(await serviceStatus(EXTRA.storedAside.token)).toBe(401);
    expect(await serviceStatus(TEST_TOKENS.admin)).toBe(200);
    // the next command says no key is stored, not that the service refuses it
    const whoami = await s.run(['whoami', '--json'], { config });
    expect([whoami.code, whoami.json<{ code: string }>().code]).toEqual([4, 'AUTH_REQUIRED']);

    // the text for people says so
    const made = await s.run(['keys', 'create', 'stored-again', '--scope', 'BrandRead', '--json'], { token: TEST_TOKENS.admin });
    const again = made.json<{ id: string; token: string }>();
    await store(config, again.token);
    const text = await s.run(['keys', 'revoke', again.id], { config, token: TEST_TOKENS.admin });
    expect([text.code, text.stderr]).toEqual([0, '']);
    expect(text.stdout).toBe(`Revoked key ${again.id} (stored-again). It was the key stored in ${configFile} (the key in use came from BRANDWIRE_TOKEN): removed it from there.\n`);
    expect(storedConfig(config)).not.toHaveProperty('token');
  });

  it('logs out while a gateway relays with the key: says the gateway keeps it until it is stopped or restarted with a new key', async () => {
    const config = s.configDir('logout-gateway');
    const setup = await s.run(['setup', EXTRA.relaying.token, '--query-port', String(await freePort()), '--crm-url', 'http://127.0.0.1:9/crm', '--json'], { config });
    expect([setup.code, setup.stderr]).toEqual([0, '']);
    const start = await s.run(['gateway', 'start', '--json'], { config });
    try {
      expect([start.code, start.stderr]).toEqual([0, '']);
      const { pid } = start.json<{ pid: number; relays: string[] }>();
      expect(start.json()).toMatchObject({ started: true, relays: ['CRM'] });
      const run = await s.run(['logout', '--json'], { config });
      expect(run.code).toBe(0);
      expect(run.json()).toMatchObject({ ok: true, revoked: true, service: 'revoked', name: 'relaying-laptop', forgotten: true, gateway: { pid } });
      expect(run.stderr).toBe(
        `The gateway (pid ${pid}) relays nothing while the service refuses its key: \`brandwire login\` stores a new one, which a gateway started with the stored key reads by itself (one started with a key from BRANDWIRE_TOKEN needs \`brandwire gateway restart\`); \`brandwire gateway stop\` stops it.\n`,
      );
    } finally {
      await s.run(['gateway', 'stop', '--timeout', '2'], { config });
    }
  });

  it('logs out: revokes the stored key on the service and removes it from the config file (still 0600)', async () => {
    const config = s.configDir('logout');
    await store(config, EXTRA.laptop.token);
    const id = await idOf('laptop');
    const run = await s.run(['logout', '--json'], { config });
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.json()).toEqual({ ok: true, endpoint: s.url, configPath: join(config, 'config.json'), revoked: true, service: 'revoked', id, name: 'laptop', forgotten: true, gateway: null });
    const stored = storedConfig(config);
    expect(stored).toEqual({ endpoint: s.url, channel: 'acme-kakao', knowledge: { queryPort: 8795 } });
    expect(JSON.stringify(stored)).not.toContain(EXTRA.laptop.token);
    expect(mode(config)).toBe(0o600);
    expect(await serviceStatus(EXTRA.laptop.token)).toBe(401);
    const whoami = await s.run(['whoami', '--json'], { config });
    expect([whoami.code, whoami.json<{ code: string }>().code]).toEqual([4, 'AUTH_REQUIRED']);
  });

  it('logs out a key the service already refuses: forgets it all the same, exit 0, saying so', async () => {
    const config = s.configDir('logout-revoked');
    await store(config, EXTRA.oldLaptop.token);
    expect((await s.run(['keys', 'revoke', await idOf('old-laptop')], { token: TEST_TOKENS.admin })).code).toBe(0);
    const run = await s.run(['logout'], { config });
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toBe(`The service at ${s.url} already refuses the key "old-laptop" (revoked before, or not one of its keys): removed it from ${join(config, 'config.json')}.\n`);
    expect(storedConfig(config)).toEqual({ endpoint: s.url, channel: 'acme-kakao', knowledge: { queryPort: 8795 } });
    expect(mode(config)).toBe(0o600);
    // with --json, as a script sees it: the key stored again as an older setup left it (setup now refuses it)
    writeFileSync(join(config, 'config.json'), JSON.stringify({ ...storedConfig(config), token: EXTRA.oldLaptop.token, keyName: 'old-laptop', scope: 'BrandRead' }), { mode: 0o600 });
    const json = await s.run(['logout', '--json'], { config });
    expect([json.code, json.stderr]).toEqual([0, '']);
    expect(json.json()).toEqual({
      ok: true,
      endpoint: s.url,
      configPath: join(config, 'config.json'),
      revoked: false,
      service: 'already-refused',
      id: null,
      name: 'old-laptop',
      reason: { code: 'UNAUTHORIZED', message: expect.any(String) },
      forgotten: true,
      gateway: null,
    });
    expect(storedConfig(config)).toEqual({ endpoint: s.url, channel: 'acme-kakao', knowledge: { queryPort: 8795 } });
    expect(mode(config)).toBe(0o600);
  });

  it('keeps the key when the service is out of reach (exit 1, saying why), and forgets it with --force, warning that it still works', async () => {
    const config = s.configDir('logout-offline');
    await store(config, EXTRA.offline.token);
    const offline = { BRANDWIRE_ENDPOINT: 'http://127.0.0.1:9' };
    const refused = await s.run(['logout', '--json'], { config, env: offline });
    expect(refused.code).toBe(1);
    expect(refused.json()).toEqual({
      ok: false,
      error: `the key "offline-laptop" is not revoked: the service could not be told (could not reach the service at http://127.0.0.1:9: ECONNREFUSED); it stays stored in ${join(config, 'config.json')}`,
      code: 'NETWORK',
      service: 'unreachable',
      endpoint: 'http://127.0.0.1:9',
      configPath: join(config, 'config.json'),
      hint: 'run logout again once the service answers, or `brandwire logout --force` to remove it from this machine anyway (it keeps working until it is revoked)',
    });
    expect(storedConfig(config)).toHaveProperty('token', EXTRA.offline.token);

    const run = await s.run(['logout', '--force', '--json'], { config, env: offline });
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({
      ok: true,
      endpoint: 'http://127.0.0.1:9',
      configPath: join(config, 'config.json'),
      revoked: false,
      service: 'unreachable',
      id: null,
      name: 'offline-laptop',
      reason: { code: 'NETWORK', message: 'could not reach the service at http://127.0.0.1:9: ECONNREFUSED' },
      forgotten: true,
      gateway: null,
    });
    expect(run.stderr).toContain('Warning: the key "offline-laptop" is NOT revoked: the service could not be told (could not reach the service at http://127.0.0.1:9: ECONNREFUSED)');
    expect(storedConfig(config)).not.toHaveProperty('token');
    expect(mode(config)).toBe(0o600);
    expect(await serviceStatus(EXTRA.offline.token)).toBe(200);

    // the text for people says the same
    await store(config, EXTRA.offline.token);
    const kept = await s.run(['logout'], { config, env: offline });
    expect(kept.code).toBe(1);
    expect(kept.stderr).toContain('it stays stored in');
    expect(kept.stderr).toContain('Hint: run logout again once the service answers, or `brandwire logout --force`');
    const text = await s.run(['logout', '--force'], { config, env: offline });
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(`Removed the key "offline-laptop" from ${join(config, 'config.json')}; it is not revoked on the service.\n`);
    expect(text.stderr).toContain('is NOT revoked');
  });

  it('says a revoke that got no answer may have happened: keeps the key (exit 1), and logout run again finds it revoked and removes it', async () => {
    const config = s.configDir('logout-unanswered');
    await store(config, EXTRA.unanswered.token);
    const proxy = await startHoldingProxy(s.url, (method) => method === 'DELETE');
    try {
      const viaProxy = { BRANDWIRE_ENDPOINT: proxy.url, BRANDWIRE_TIMEOUT_MS: '500' };
      const unknown = await s.run(['logout', '--json'], { config, env: viaProxy });
      expect(unknown.code).toBe(1);
      expect(unknown.json()).toEqual({
        ok: false,
        error: `whether the key "train-laptop" is revoked is not known: the revoke went out and no answer from the service at ${proxy.url} within 0.5 s; it stays stored in ${join(config, 'config.json')}`,
        code: 'NETWORK',
        service: 'unanswered',
        endpoint: proxy.url,
        configPath: join(config, 'config.json'),
        hint: 'run logout again: the service then answers whether it revoked the key (one it refuses already is removed), or `brandwire logout --force` to remove it from this machine anyway (if it is not revoked, it keeps working until it is)',
      });
      await proxy.held();
    } finally {
      await proxy.close();
    }
    expect(storedConfig(config)).toHaveProperty('token', EXTRA.unanswered.token);
    // the service did revoke it: the next logout learns so and removes it
    expect(await serviceStatus(EXTRA.unanswered.token)).toBe(401);
    const again = await s.run(['logout', '--json'], { config });
    expect(again.code).toBe(0);
    expect(again.json()).toMatchObject({ revoked: false, service: 'already-refused', forgotten: true });
    expect(storedConfig(config)).not.toHaveProperty('token');
  });

  it('with --force removes a key whose revoke got no answer, warning that it may still work', async () => {
    const config = s.configDir('logout-unanswered-forced');
    await store(config, EXTRA.unansweredForced.token);
    const proxy = await startHoldingProxy(s.url, (method) => method === 'DELETE');
    try {
      const viaProxy = { BRANDWIRE_ENDPOINT: proxy.url, BRANDWIRE_TIMEOUT_MS: '500' };
      const json = await s.run(['logout', '--force', '--json'], { config, env: viaProxy });
      expect(json.code).toBe(0);
      expect(json.json()).toMatchObject({ revoked: false, service: 'unanswered', forgotten: true, reason: { code: 'NETWORK', message: `no answer from the service at ${proxy.url} within 0.5 s` } });
      expect(json.stderr).toContain(`Warning: the key "tunnel-laptop" may NOT be revoked: the revoke went out and no answer from the service at ${proxy.url} within 0.5 s. If it is not, it works until it is revoked`);
      await proxy.held();
      expect(await serviceStatus(EXTRA.unansweredForced.token)).toBe(401);
      // the text for people says the same
      await store(config, EXTRA.unansweredText.token);
      const text = await s.run(['logout', '--force'], { config, env: viaProxy });
      expect(text.code).toBe(0);
      expect(text.stderr).toContain('Warning: the key "ferry-laptop" may NOT be revoked');
      expect(text.stdout).toBe(`Removed the key "ferry-laptop" from ${join(config, 'config.json')}; whether the service revoked it is not known.\n`);
    } finally {
      await proxy.close();
    }
  });

  it('keeps the key when the stored endpoint is no URL, and forgets it with --force', async () => {
    const config = s.configDir('logout-bad-endpoint');
    await store(config, EXTRA.offline.token);
    writeFileSync(join(config, 'config.json'), JSON.stringify({ ...storedConfig(config), endpoint: 'nonsense' }), { mode: 0o600 });
    // no BRANDWIRE_ENDPOINT: the config file's endpoint is the one
    const fromConfig = { BRANDWIRE_ENDPOINT: '' };
    const kept = await s.run(['logout', '--json'], { config, env: fromConfig });
    expect(kept.code).toBe(1);
    expect(kept.json()).toMatchObject({ ok: false, code: 'CONFIG', error: expect.stringContaining(`the endpoint in ${join(config, 'config.json')} must be a URL`) });
    expect(storedConfig(config)).toHaveProperty('token', EXTRA.offline.token);
    const forced = await s.run(['logout', '--force', '--json'], { config, env: fromConfig });
    expect(forced.code).toBe(0);
    expect(forced.json()).toMatchObject({ ok: true, revoked: false, service: 'failed', forgotten: true, reason: { code: 'CONFIG' } });
    expect(storedConfig(config)).not.toHaveProperty('token');
  });

  it('has nothing to do with no key stored: exit 0, no config file made', async () => {
    const config = s.configDir('logout-nothing');
    const text = await s.run(['logout'], { config });
    expect([text.code, text.stdout, text.stderr]).toEqual([0, `No key is stored in ${join(config, 'config.json')}: nothing to log out.\n`, '']);
    const json = await s.run(['logout', '--json'], { config });
    expect(json.code).toBe(0);
    expect(json.json()).toEqual({ ok: true, endpoint: s.url, configPath: join(config, 'config.json'), revoked: false, service: 'not-asked', forgotten: false, id: null, name: null, gateway: null });
    expect(existsSync(config)).toBe(false);
  });

  it('leaves a key from BRANDWIRE_TOKEN alone: USAGE, exit 2, naming what to do; the stored key stays', async () => {
    const config = s.configDir('logout-env');
    await store(config, TEST_TOKENS.writer);
    const run = await s.run(['logout', '--json'], { config, token: TEST_TOKENS.reader });
    expect(run.code).toBe(2);
    expect(run.json()).toEqual({ ok: false, error: `the key in use comes from BRANDWIRE_TOKEN, which logout leaves alone (another key is stored in ${join(config, 'config.json')})`, code: 'USAGE', hint: expect.stringContaining('unset BRANDWIRE_TOKEN first') });
    const text = await s.run(['logout'], { config: s.configDir('logout-env-none'), token: TEST_TOKENS.reader });
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('Error: the key in use comes from BRANDWIRE_TOKEN, which logout leaves alone (no key is stored in');
    expect(text.stderr).toContain('Hint: to log out the stored key, unset BRANDWIRE_TOKEN first; to revoke the BRANDWIRE_TOKEN key for good, `brandwire keys list` shows its id (marked *), then `brandwire keys revoke <id>`');
    expect(storedConfig(config)['token']).toBe(TEST_TOKENS.writer);
    expect(await serviceStatus(TEST_TOKENS.reader)).toBe(200);
    expect(await serviceStatus(TEST_TOKENS.writer)).toBe(200);
  });

  it('logs out the stored key when BRANDWIRE_TOKEN holds the same one, telling to unset it', async () => {
    const config = s.configDir('logout-env-twin');
    await store(config, EXTRA.twin.token);
    const run = await s.run(['logout', '--json'], { config, token: EXTRA.twin.token });
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ ok: true, revoked: true, service: 'revoked', name: 'twin', forgotten: true });
    expect(run.stderr).toBe('BRANDWIRE_TOKEN holds the same key: unset it.\n');
    expect(storedConfig(config)).not.toHaveProperty('token');
    expect(await serviceStatus(EXTRA.twin.token)).toBe(401);
  });
});
