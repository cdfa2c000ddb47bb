import { type FakeModel, startFakeModel } from './testing';
import { type AiSettings, AiUnavailableError, complete, listModels } from './index';

describe('asking a model over HTTP', () => {
  let fake: FakeModel;
  beforeAll(async () => {
    fake = await startFakeModel();
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.answerWith('OK');
  });

  const openai = (): AiSettings => ({ provider: 'openai', model: 'gpt-test', apiKey: 'sk-secret-1', url: fake.openAiUrl });
  const anthropic = (): AiSettings => ({ provider: 'anthropic', model: 'claude-test', apiKey: 'sk-ant-secret', url: fake.anthropicUrl });

  it('sends the instructions and the turns to OpenAI-style chat completions with the bearer key', async () => {
    fake.answerWith('  Your parcel left today.  ');
    const answer = await complete(openai(), { system: 'Be brief.', turns: [{ role: 'user', content: 'Where is my parcel?' }], maxTokens: 123 });
    expect(answer).toBe('Your parcel left today.');
    expect(fake.requests[0]).toMatchObject({
      method: 'POST',
      path: '/openai/v1/chat/completions',
      headers: expect.objectContaining({ authorization: 'Bearer sk-secret-1' }),
      body: { model: 'gpt-test', max_completion_tokens: 123, temperature: 0, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Where is my parcel?' }] },
    });
  });

  it("leaves the temperature out for OpenAI's reasoning models, and asks Ollama with max_tokens", async () => {
    await complete({ ...openai(), model: 'o4-mini' }, { system: 's', turns: [{ role: 'user', content: 'q' }], maxTokens: 50, temperature: 0.3 });
    await complete({ provider: 'ollama', model: 'llama3.2', url: fake.openAiUrl }, { system: 's', turns: [{ role: 'user', content: 'q' }], maxTokens: 50, temperature: 0.3 });
    const [reasoning, ollama] = fake.requests.map((r) => r.body as Record<string, unknown>);
    expect(reasoning).toMatchObject({ model: 'o4-mini', max_completion_tokens: 50 });
    expect(reasoning).not.toHaveProperty('temperature');
    expect(reasoning).not.toHaveProperty('max_tokens');
    expect(ollama).toMatchObject({ model: 'llama3.2', max_tokens: 50, temperature: 0.3 });
  });

  it('sends the system prompt apart and the key as x-api-key to Anthropic', async () => {
    fake.answerWith('Hello');
    const answer = await complete(anthropic(), { system: 'Be brief.', turns: [{ role: 'user', content: 'Hi' }] });
    expect(answer).toBe('Hello');
    expect(fake.requests[0]).toMatchObject({
      path: '/anthropic/v1/messages',
      headers: expect.objectContaining({ 'x-api-key': 'sk-ant-secret', 'anthropic-version': '2023-06-01' }),
      body: { model: 'claude-test', system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(fake.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('lets ollama go without a key, and refuses openai and anthropic without one before any call', async () => {
    await expect(complete({ provider: 'ollama', model: 'llama3', url: fake.openAiUrl }, { system: 's', turns: [{ role: 'user', content: 'q' }] })).resolves.toBe('OK');
    expect(fake.requests[0]?.headers.authorization).toBeUndefined();
    for (const provider of ['openai', 'anthropic'] as const) {
      await expect(complete({ provider, model: 'm', url: fake.openAiUrl }, { system: 's', turns: [{ role: 'user', content: 'q' }] })).rejects.toThrow(`${provider}/m: no API key is set`);
      // a setting to fix, told apart from a provider out of reach
      await expect(listModels({ provider, model: '', url: fake.openAiUrl })).rejects.toMatchObject({ name: 'AiKeyMissingError', setting: 'gateway.ai.apiKey' });
    }
    expect(fake.requests).toHaveLength(1);
  });

  it('says what the provider answered when it fails, and never shows the key', async () => {
    fake.failWith(401, { error: { message: 'Incorrect API key provided: sk-secret-1' } });
    const error = await complete(openai(), { system: 's', turns: [{ role: 'user', content: 'q' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AiUnavailableError);
    expect((error as Error).message).toBe(`openai/gpt-test: the request to ${fake.openAiUrl}/chat/completions failed: HTTP 401 Unauthorized: Incorrect API key provided: ***`);
  });

  it('refuses a page where the provider\'s JSON should be, and an answer without text', async () => {
    fake.failWith(200, '<html><body>Sign in to the proxy</body></html>');
    await expect(complete(openai(), { system: 's', turns: [{ role: 'user', content: 'q' }] })).rejects.toThrow("did not answer with the provider's JSON (it began: <html><body>Sign in to the proxy</body></html>)");
    fake.answerWith('   ');
    await expect(complete(openai(), { system: 's', turns: [{ role: 'user', content: 'q' }] })).rejects.toThrow('openai/gpt-test: the answer had no text');
  });

  it('gives up after its timeout and when cancelled', async () => {
    const { createServer } = await import('node:http');
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/v1`;
    try {
      await expect(complete({ ...openai(), url }, { system: 's', turns: [{ role: 'user', content: 'q' }], timeoutMs: 200 })).rejects.toThrow('no answer within 0.2 s');
      const cancel = new AbortController();
      const asked = complete({ ...openai(), url }, { system: 's', turns: [{ role: 'user', content: 'q' }], signal: cancel.signal });
      cancel.abort();
      await expect(asked).rejects.toThrow('cancelled');
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('lists the models sorted by id, with Anthropic\'s pages followed to the end', async () => {
    fake.models = ['model-b', 'model-a', 'model-c'];
    const fromOpenAi = await listModels(openai());
    expect(fromOpenAi.map((m) => m.id)).toEqual(['model-a', 'model-b', 'model-c']);
    expect(fromOpenAi[0]).toEqual({ id: 'model-a', created: new Date(1_700_000_001_000).toISOString() });
    const fromAnthropic = await listModels(anthropic());
    expect(fromAnthropic).toEqual([
      { id: 'model-a', name: 'MODEL-A', created: '2025-05-14T00:00:00.000Z' },
      { id: 'model-b', name: 'MODEL-B', created: '2025-05-14T00:00:00.000Z' },
      { id: 'model-c', name: 'MODEL-C', created: '2025-05-14T00:00:00.000Z' },
    ]);
    expect(fake.requests.filter((r) => r.path.startsWith('/anthropic/v1/models')).map((r) => r.path)).toEqual(['/anthropic/v1/models?limit=1000', '/anthropic/v1/models?limit=1000&after_id=model-a']);
  });
});
