import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeModel, startFakeModel } from '@brandwire/ai/testing';
import { runCli } from './test-support/cli';

describe('brandwire model list and model set', () => {
  let fake: FakeModel;
  let dir: string;
  const configFile = (): string => join(dir, 'config.json');
  const storedAi = (): Record<string, unknown> => (JSON.parse(readFileSync(configFile(), 'utf8')) as { gateway: { ai: Record<string, unknown> } }).gateway.ai;
  const model = (args: string[]) => runCli(['model', ...args], { env: { BRANDWIRE_CONFIG_DIR: dir } });
  const store = (ai: Record<string, unknown>): void => writeFileSync(configFile(), JSON.stringify({ endpoint: 'http://127.0.0.1:9', token: 'bw_x', gateway: { ai } }), { mode: 0o600 });

  beforeAll(async () => {
    fake = await startFakeModel();
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bw-model-'));
    fake.requests.length = 0;
    fake.answerWith('OK');
    fake.models = ['gpt-b', 'gpt-a', 'gpt-a-mini'];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('shows the control characters of a model id it prints as signs when the output is no terminal, colour sequences too', async () => {
    store({ provider: 'openai', apiKey: 'sk-x', url: fake.openAiUrl });
    const run = await model(['set', 'm\u001b[8mx', '--no-check']);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: expect.stringContaining('openai/m␛[8mx (not checked with the provider)') });
    expect(run.stdout).not.toContain('\u001b');
  });

  it('says how to set a provider when none is stored (CONFIG, exit 1)', async () => {
    const run = await model(['list', '--json']);
    expect(run.code).toBe(1);
    expect(run.json()).toEqual({
      ok: false,
      code: 'CONFIG',
      error: 'no AI provider is set',
      setting: 'gateway.ai',
      hint: 'store one with `brandwire setup <key> --ai-provider openai|anthropic|ollama --ai-api-key <key>` (or pass --provider)',
    });
    const text = await model(['list']);
    expect(text.stderr).toContain('brandwire setup <key> --ai-provider openai|anthropic|ollama --ai-api-key <key>');
  });

  it("lists the provider's models sorted, the selected one marked, asking with the stored key and never showing it", async () => {
    store({ provider: 'openai', model: 'gpt-b', apiKey: 'sk-model-secret', url: fake.openAiUrl });
    const run = await model(['list', '--json']);
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({
      ok: true,
      provider: 'openai',
      selected: 'gpt-b',
      models: [
        { id: 'gpt-a', created: expect.any(String), selected: false },
        { id: 'gpt-a-mini', created: expect.any(String), selected: false },
        { id: 'gpt-b', created: expect.any(String), selected: true },
      ],
    });
    expect(fake.requests[0]).toMatchObject({ method: 'GET', path: '/openai/v1/models', headers: expect.objectContaining({ authorization: 'Bearer sk-model-secret' }) });
    const text = await model(['list']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/│ \* │ gpt-b +│ \d{4}-\d\d-\d\d │/);
    expect(text.stdout).not.toContain('NAME');
    expect(text.stdout).toMatch(/│ {3}│ gpt-a +│/);
    expect(text.stdout).toContain('3 models of openai; * selected');
    for (const out of [run.stdout, run.stderr, text.stdout, text.stderr]) expect(out).not.toContain('sk-model-secret');
  });

  it("follows Anthropic's pages", async () => {
    store({ provider: 'anthropic', apiKey: 'sk-ant', url: fake.anthropicUrl });
    fake.models = ['claude-c', 'claude-a', 'claude-b'];
    const run = await model(['list', '--json']);
    expect(run.json()).toMatchObject({ ok: true, provider: 'anthropic', selected: null, models: [{ id: 'claude-a', name: 'CLAUDE-A' }, { id: 'claude-b' }, { id: 'claude-c' }] });
    const text = await model(['list']);
    expect(text.stdout).toMatch(/│ +│ claude-a +│ CLAUDE-A │ 2025-05-14 │/);
    expect(text.stdout).toContain('none selected: `brandwire model set <id>`');
  });

  it('selects an offered model, keeping the key, the url and the file mode 0600', async () => {
    store({ provider: 'openai', model: 'gpt-b', apiKey: 'sk-model-secret', url: fake.openAiUrl, reply: 'suggest' });
    const run = await model(['set', 'gpt-a-mini', '--json']);
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({ ok: true, provider: 'openai', model: 'gpt-a-mini', checked: true, configPath: configFile() });
    expect(storedAi()).toEqual({ provider: 'openai', model: 'gpt-a-mini', apiKey: 'sk-model-secret', url: fake.openAiUrl, reply: 'suggest' });
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    expect((await model(['list', '--json'])).json()).toMatchObject({ selected: 'gpt-a-mini' });
  });

  it('refuses a model the provider does not offer, naming close ones, and stores nothing', async () => {
    store({ provider: 'openai', model: 'gpt-b', apiKey: 'sk-model-secret', url: fake.openAiUrl });
    const run = await model(['set', 'o3', '--json']);
    expect(run.code).toBe(1);
    expect(run.json()).toEqual({ ok: false, code: 'MODEL_UNKNOWN', error: 'openai offers no model "o3" to this key', provider: 'openai', model: 'o3', hint: 'see `brandwire model list`' });
    const close = await model(['set', 'gpt-a']);
    expect(close.code).toBe(0);
    const typo = await model(['set', 'mini']);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('openai offers no model "mini" to this key; did you mean gpt-a-mini?');
    // a mistyped id: the close ones by edit distance, closest first
    const swapped = await model(['set', 'gtp-a', '--json']);
    expect(swapped.json()).toMatchObject({ code: 'MODEL_UNKNOWN', error: 'openai offers no model "gtp-a" to this key; did you mean gpt-a?' });
    expect(storedAi()['model']).toBe('gpt-a');
  });

  it('fails with AI_UNAVAILABLE when the provider cannot list its models, and --no-check stores the model all the same', async () => {
    store({ provider: 'openai', model: 'gpt-b', apiKey: 'sk-model-secret', url: fake.openAiUrl });
    fake.failWith(401, { error: { message: 'Incorrect API key provided: sk-model-secret' } });
    const list = await model(['list', '--json']);
    expect(list.code).toBe(1);
    expect(list.json()).toMatchObject({ ok: false, code: 'AI_UNAVAILABLE', error: expect.stringContaining('listing the models with openai/gpt-b failed: the request to') });
    expect(list.stdout).toContain('HTTP 401');
    expect(list.stdout).not.toContain('sk-model-secret');
    const set = await model(['set', 'gpt-new', '--json']);
    expect(set.json()).toMatchObject({ ok: false, code: 'AI_UNAVAILABLE' });
    expect(storedAi()['model']).toBe('gpt-b');
    const unchecked = await model(['set', 'gpt-new', '--no-check', '--json']);
    expect(unchecked.json()).toMatchObject({ ok: true, model: 'gpt-new', checked: false });
    expect(storedAi()['model']).toBe('gpt-new');
  });

  it('says how to store the API key when the provider needs one and none is stored (CONFIG, exit 1), not AI_UNAVAILABLE', async () => {
    store({ provider: 'ollama', model: 'llama3.2', url: fake.openAiUrl });
    const run = await model(['set', 'gpt-a', '--provider', 'openai', '--json']);
    expect({ code: run.code, out: run.json() }).toEqual({
      code: 1,
      out: {
        ok: false,
        code: 'CONFIG',
        error: 'openai needs an API key, and none is stored (gateway.ai.apiKey)',
        provider: 'openai',
        setting: 'gateway.ai.apiKey',
        hint: 'store it with `brandwire setup <key> --ai-provider openai --ai-api-key <provider key>`',
      },
    });
    expect(fake.requests).toEqual([]);
    const text = await model(['list', '--provider', 'anthropic']);
    expect({ code: text.code, stderr: text.stderr }).toEqual({
      code: 1,
      stderr: 'Error: anthropic needs an API key, and none is stored (gateway.ai.apiKey) (CONFIG)\nHint: store it with `brandwire setup <key> --ai-provider anthropic --ai-api-key <provider key>`\n',
    });
  });

  it("moves to another provider with --provider and --url, leaving the other provider's key behind but not how the gateway answers", async () => {
    store({ provider: 'openai', model: 'gpt-b', apiKey: 'sk-model-secret', reply: 'auto', instructions: 'Never promise refunds.' });
    fake.models = ['llama3.2', 'qwen2.5'];
    const run = await model(['set', 'llama3.2', '--provider', 'ollama', '--url', fake.openAiUrl, '--json']);
    expect(run.json()).toMatchObject({ ok: true, provider: 'ollama', model: 'llama3.2' });
    expect(fake.requests[0]?.headers.authorization).toBeUndefined();
    expect(storedAi()).toEqual({ provider: 'ollama', model: 'llama3.2', url: fake.openAiUrl, reply: 'auto', instructions: 'Never promise refunds.' });
    const bad = await model(['set', 'x', '--provider', 'ollama', '--url', 'ftp://host', '--json']);
    expect(bad.code).toBe(2);
    expect(bad.json()).toMatchObject({ code: 'USAGE', error: '--url must be an http or https URL, got "ftp://host"' });
    const secretInUrl = await model(['list', '--url', 'http://user:pass@127.0.0.1:9/v1?api-key=s3cr3t', '--json']);
    expect(secretInUrl.code).toBe(2);
    expect(secretInUrl.json()).toMatchObject({ code: 'USAGE', error: '--url must be a base URL without credentials, query or fragment, got "http://127.0.0.1:9/v1…"' });
    expect(secretInUrl.stdout).not.toContain('s3cr3t');
    const blank = await model(['set', '  ', '--no-check', '--json']);
    expect(blank.code).toBe(2);
    expect(blank.json()).toMatchObject({ code: 'USAGE', error: 'the model id is empty' });
  });

  it('says on one line which argument set lacks (exit 2)', async () => {
    const json = await model(['set', '--json']);
    expect({ code: json.code, out: json.json() }).toEqual({ code: 2, out: { ok: false, code: 'USAGE', error: 'Missing 1 required arg: <id> (the model id, as `brandwire model list` shows it)', hint: 'see --help for the flags and arguments' } });
    const text = await model(['set']);
    expect({ code: text.code, stdout: text.stdout, stderr: text.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: Missing 1 required arg: <id> (the model id, as `brandwire model list` shows it)\nHint: see --help for the flags and arguments\n',
    });
  });
});
