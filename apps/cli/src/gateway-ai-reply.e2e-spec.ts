import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type FakeModel, startFakeModel } from '@brandwire/ai/testing';
import { TEST_TOKENS } from '@brandwire/client/testing';
import { type CliRun, CliSandbox } from './test-support/cli';
import { freePort } from './test-support/processes';

/** A Slack stand-in: records the texts it is sent. */
async function startTeamChat(): Promise<{ url: string; texts: string[]; close: () => Promise<void> }> {
  const texts: string[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      texts.push(String((JSON.parse(raw) as { text: unknown }).text));
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    texts,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('brandwire gateway: answering customers with AI', () => {
  let s: CliSandbox;
  let model: FakeModel;
  let chat: Awaited<ReturnType<typeof startTeamChat>>;

  beforeAll(async () => {
    s = await CliSandbox.start();
    [model, chat] = await Promise.all([startFakeModel(), startTeamChat()]);
  });
  afterAll(async () => {
    await Promise.all([model.close(), chat.close()]);
    await s.stop();
  });

  /** A config folder whose gateway answers with the fake model in `reply` mode. */
  const configWith = async (name: string, ai: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<string> => {
    const config = s.configDir(name);
    mkdirSync(config, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(config, 'config.json'),
      JSON.stringify({
        knowledge: { queryPort: await freePort() },
        gateway: { ai: { provider: 'openai', model: 'gpt-test', apiKey: 'sk-reply-secret', url: model.openAiUrl, ...ai } },
        ...extra,
      }),
      { mode: 0o600 },
    );
    return config;
  };
  const logOf = (config: string): string => readFileSync(join(config, 'gateway', 'gateway.log'), 'utf8');
  const started = async (config: string, token: string): Promise<(args: readonly string[]) => Promise<CliRun>> => {
    const cli = (args: readonly string[]) => s.run(args, { config, token });
    const start = await cli(['gateway', 'start', '--json']);
    expect({ code: start.code, stderr: start.stderr }).toEqual({ code: 0, stderr: '' });
    await until('the AI relay to follow the channel', () => (/following the signals of acme-kakao for the AI after \d+\n/.test(logOf(config)) ? true : undefined));
    return cli;
  };

  it('refuses to start AI replies that cannot work, saying what to set', async () => {
    const noSink = await configWith('ai-no-sink', { reply: 'suggest' });
    const suggest = await s.run(['gateway', 'start', '--json'], { config: noSink, token: TEST_TOKENS.reader });
    expect(suggest.code).toBe(1);
    expect(suggest.json()).toMatchObject({ ok: false, code: 'CONFIG', error: 'AI replies are to be suggested in the team chat, but no team-chat sink is set' });
    const noModel = await configWith('ai-no-model', { reply: 'auto', model: undefined });
    const auto = await s.run(['gateway', 'start'], { config: noModel, token: TEST_TOKENS.writer });
    expect(auto.code).toBe(1);
    expect(auto.stderr).toContain('AI replies are on (gateway.ai.reply) but no model is selected');
    expect(auto.stderr).toContain('brandwire model set <id>');
    const reader = await configWith('ai-reader', { reply: 'auto' }, { token: TEST_TOKENS.reader, scope: 'BrandRead', endpoint: s.url });
    const readOnly = await s.run(['gateway', 'start', '--json'], { config: reader, env: { BRANDWIRE_ENDPOINT: undefined } });
    expect(readOnly.code).toBe(1);
    expect(readOnly.json()).toMatchObject({ ok: false, code: 'CONFIG', error: 'AI replies are to be sent (gateway.ai.reply auto), but the stored key can only read (BrandRead)' });
    for (const config of [noSink, noModel, reader]) expect((await s.run(['gateway', 'status', '--json'], { config })).json()).toMatchObject({ running: false });
  });

  it('asks the service about a key from BRANDWIRE_TOKEN: refuses one it does not know (exit 4), and a BrandRead one for auto replies; a service out of reach does not keep it from starting', async () => {
    const config = await configWith('ai-env-key', { reply: 'auto' }, { token: TEST_TOKENS.writer, scope: 'BrandWrite', endpoint: s.url });
    const unreachable = { config, token: 'bw_not_checked_while_down', env: { BRANDWIRE_ENDPOINT: 'http://127.0.0.1:9' } };
    try {
      const reader = await s.run(['gateway', 'start', '--json'], { config, token: TEST_TOKENS.reader });
      expect({ code: reader.code, json: reader.json() }).toEqual({
        code: 1,
        json: { ok: false, code: 'CONFIG', setting: 'gateway.ai', error: 'AI replies are to be sent (gateway.ai.reply auto), but the key in BRANDWIRE_TOKEN can only read (BrandRead)', hint: 'set BRANDWIRE_TOKEN to a BrandWrite key, or --ai-reply suggest' },
      });
      const unknown = await s.run(['gateway', 'start'], { config, token: 'bw_not_a_key_of_this_service' });
      expect({ code: unknown.code, stderr: unknown.stderr }).toEqual({
        code: 4,
        stderr: `Error: unknown key (UNAUTHORIZED)\nHint: ${s.url} does not know the key in BRANDWIRE_TOKEN: set it to a key of this service, or unset it to use the stored key\n`,
      });
      expect((await s.run(['gateway', 'status', '--json'], { config })).json()).toMatchObject({ running: false });

      const down = await s.run(['gateway', 'start', '--json'], unreachable);
      expect({ code: down.code, stderr: down.stderr }).toEqual({ code: 0, stderr: '' });
      expect(down.json()).toMatchObject({ ok: true, started: true, relays: ['AI replies (auto, openai/gpt-test)'] });
    } finally {
      await s.run(['gateway', 'stop', '--timeout', '2'], unreachable);
    }
  });

  describe('suggest: a reply for the agents in the team chat', () => {
    let config: string;
    let cli: (args: readonly string[]) => Promise<CliRun>;
    beforeAll(async () => {
      config = await configWith('ai-suggest', { reply: 'suggest', instructions: 'Parcels ship from Busan.' }, { gateway: undefined });
      const stored = JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')) as { gateway?: object };
      writeFileSync(
        join(config, 'config.json'),
        JSON.stringify({
          ...stored,
          gateway: { sink: { type: 'slack', url: chat.url }, ai: { provider: 'openai', model: 'gpt-test', apiKey: 'sk-reply-secret', url: model.openAiUrl, reply: 'suggest', instructions: 'Parcels ship from Busan.' } },
        }),
        { mode: 0o600 },
      );
      cli = await started(config, TEST_TOKENS.reader);
    });
    afterAll(async () => {
      await cli(['gateway', 'stop', '--timeout', '2']);
    });

    it('lists the AI among the relays, asks the model with the conversation and the brand instructions, and posts its reply for the agents only', async () => {
      expect((await cli(['gateway', 'status', '--json'])).json()).toMatchObject({ running: true, relays: ['team chat (slack)', 'AI replies (suggest, openai/gpt-test)'] });
      model.requests.length = 0;
      model.answerWith('Your parcel left Busan <today>.');
      await s.service.customerWrites('sora', 'Where is my parcel?');
      const [asked] = await model.chats(1);
      const body = asked?.body as { model: string; messages: Array<{ role: string; content: string }> };
      expect(body.model).toBe('gpt-test');
      expect(body.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining("The brand's instructions:\nParcels ship from Busan.") });
      expect(body.messages.slice(1)).toEqual([{ role: 'user', content: 'Where is my parcel?' }]);
      const line = await until('the suggestion', () => chat.texts.find((t) => t.includes('AI suggests')));
      expect(line).toBe('[acme-kakao] AI suggests for sora: Your parcel left Busan &lt;today&gt;.');
      expect((await s.service.customerChat('sora')).map((b) => b.text)).toEqual(['Where is my parcel?']);
    });

    it('tells the team chat that a customer needs an agent when the model declines or cannot be asked, never logging the key', async () => {
      model.answerWith('HANDOFF');
      await s.service.customerWrites('tomas', 'I want to speak to a person.');
      expect(await until('the hand-over', () => chat.texts.find((t) => t.includes('tomas needs')))).toBe('[acme-kakao] tomas needs an agent: the AI has no answer');
      model.failWith(401, { error: { message: 'Incorrect API key provided: sk-reply-secret' } });
      await s.service.customerWrites('uma', 'Hello?');
      expect(await until('the hand-over', () => chat.texts.find((t) => t.includes('uma needs')))).toBe('[acme-kakao] uma needs an agent: the AI could not be asked');
      expect(logOf(config)).toMatch(/error: the AI could not answer uma in acme-kakao \(seq \d+\): openai\/gpt-test: the request to .* failed: HTTP 401/);
      expect(logOf(config)).not.toContain('sk-reply-secret');
      model.answerWith('OK');
    });
  });

  describe('auto: the reply sent to the customer', () => {
    let config: string;
    let cli: (args: readonly string[]) => Promise<CliRun>;
    beforeAll(async () => {
      config = await configWith('ai-auto', { reply: 'auto' });
      cli = await started(config, TEST_TOKENS.writer);
    });
    afterAll(async () => {
      await cli(['gateway', 'stop', '--timeout', '2']);
    });

    it("sends the model's reply to the customer, with the agent's earlier answers as its own turns", async () => {
      await s.service.customerWrites('vera', 'Do you ship to Jeju?');
      const before = model.requests.length;
      model.answerWith('Yes, we ship to Jeju in two days.');
      const bubble = await until('the AI reply in the customer chat', async () => (await s.service.customerChat('vera')).find((b) => b.text === 'Yes, we ship to Jeju in two days.'));
      expect(bubble).toMatchObject({ kind: 'text', deleted: false });
      model.answerWith('It costs 3,000 won.');
      await s.service.customerWrites('vera', 'How much is it?');
      await until('the second reply', async () => ((await s.service.customerChat('vera')).some((b) => b.text === 'It costs 3,000 won.') ? true : undefined));
      const last = model.requests.slice(before).filter((r) => r.method === 'POST').at(-1)?.body as { messages: Array<{ role: string; content: string }> };
      expect(last.messages.slice(1)).toEqual([
        { role: 'user', content: 'Do you ship to Jeju?' },
        { role: 'assistant', content: 'Yes, we ship to Jeju in two days.' },
        { role: 'user', content: 'How much is it?' },
      ]);
      expect(logOf(config)).toMatch(/the AI answered vera in acme-kakao \(seq \d+\) \(bw-\d+-\w+\)/);
    });

    it('answers a burst once: a message the customer followed with another is answered with it', async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      model.answerWith(async (request) => {
        const turns = (request.body as { messages: Array<{ content: string }> }).messages;
        if (turns.at(-1)?.content.includes('first part')) await held;
        return `Answer to: ${turns.at(-1)?.content ?? ''}`;
      });
      const asked = model.requests.filter((r) => r.method === 'POST').length;
      await s.service.customerWrites('yuri', 'first part');
      await model.chats(asked + 1);
      await s.service.customerWrites('yuri', 'second part');
      release();
      await until('the answer to the burst', async () => ((await s.service.customerChat('yuri')).some((b) => b.text?.startsWith('Answer to:')) ? true : undefined));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await s.service.customerChat('yuri')).map((b) => b.text)).toEqual(['first part', 'second part', 'Answer to: first part\nsecond part']);
      model.answerWith('OK');
    });

    it('drops its answer when an agent answered, or the consultation ended, while the model was thinking', async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      model.answerWith(async () => {
        await held;
        return 'An answer that comes too late.';
      });
      const asked = model.requests.filter((r) => r.method === 'POST').length;
      await s.service.customerWrites('walt', 'Is the shop open on Sunday?');
      await s.service.customerWrites('xena', 'Do you sell gift cards?');
      await model.chats(asked + 2);
      const sent = await s.run(['send', '--channel', 'acme-kakao', '--to', 'walt', '--text', 'Yes, from 10 to 4.', '--json'], { token: TEST_TOKENS.writer });
      expect(sent.code).toBe(0);
      expect((await s.service.call('POST', '/sandbox/customers/xena/end', { brandKey: 'acme-kakao' })).status).toBe(200);
      release();
      await until('both answers dropped', () => (/answer to walt in acme-kakao \(seq \d+\) is dropped: an agent answered/.test(logOf(config)) && /answer to xena in acme-kakao \(seq \d+\) is dropped: the consultation (ended|expired)/.test(logOf(config)) ? true : undefined));
      expect((await s.service.customerChat('walt')).map((b) => b.text)).toEqual(['Is the shop open on Sunday?', 'Yes, from 10 to 4.']);
      expect((await s.service.customerChat('xena')).map((b) => b.text)).not.toContain('An answer that comes too late.');
      model.answerWith('OK');
    });
  });

  describe('auto, with a team chat that is down', () => {
    let config: string;
    let cli: (args: readonly string[]) => Promise<CliRun>;
    beforeAll(async () => {
      config = await configWith('ai-auto-chat-down', { reply: 'auto' });
      const stored = JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')) as { gateway: object };
      writeFileSync(join(config, 'config.json'), JSON.stringify({ ...stored, gateway: { ...stored.gateway, sink: { type: 'slack', url: 'http://127.0.0.1:9/down' } } }), { mode: 0o600 });
      cli = await started(config, TEST_TOKENS.writer);
    });
    afterAll(async () => {
      await cli(['gateway', 'stop', '--timeout', '2']);
    });

    it('goes on answering while its hand-overs wait for the team chat', async () => {
      model.answerWith((request) => ((request.body as { messages: Array<{ content: string }> }).messages.at(-1)?.content.includes('a person') ? 'HANDOFF' : 'Sure, it ships today.'));
      for (let i = 1; i <= 9; i++) await s.service.customerWrites(`waiting${i}`, 'I want a person');
      await s.service.customerWrites('zoe', 'Does it ship today?');
      await until('the answer to zoe', async () => ((await s.service.customerChat('zoe')).some((b) => b.text === 'Sure, it ships today.') ? true : undefined));
      await until('the hand-overs logged', () => ((logOf(config).match(/the AI leaves waiting\d in acme-kakao/g) ?? []).length === 9 ? true : undefined));
      expect(logOf(config)).toMatch(/relay of acme-kakao:\d+\.0 to the team chat failed/);
      // each hand-over waits behind the message it is about, which the team chat has not taken
      expect(logOf(config)).not.toMatch(/relay of acme-kakao:\d+\.ai to the team chat/);
      model.answerWith('OK');
    });
  });
});
