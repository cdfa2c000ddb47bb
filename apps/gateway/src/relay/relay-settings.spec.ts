import { RELAY_ENV, relaySettingsFrom, scopeNeededBy } from './relay-settings';

describe('relaySettingsFrom', () => {
  const base = { endpoint: 'http://127.0.0.1:8080', token: 'bw_key' };

  it('is undefined without the variable, and reads the team chat and the CRM', () => {
    expect(relaySettingsFrom(undefined)).toBeUndefined();
    expect(relaySettingsFrom(JSON.stringify({ ...base, sink: { type: 'discord', url: 'https://chat.example.com/hook' }, crm: { url: 'https://crm.example.com/in', token: 't' } }))).toEqual({
      ...base,
      targets: [
        { name: 'team chat', type: 'discord', url: 'https://chat.example.com/hook', token: undefined },
        { name: 'CRM', type: 'webhook', url: 'https://crm.example.com/in', token: 't' },
      ],
    });
  });

  it('reads the config file the key came from, refusing a relative path', () => {
    expect(relaySettingsFrom(JSON.stringify({ ...base, configFile: '/home/kim/.config/brandwire/config.json' }))?.configFile).toBe('/home/kim/.config/brandwire/config.json');
    expect(relaySettingsFrom(JSON.stringify(base))).not.toHaveProperty('configFile');
    expect(() => relaySettingsFrom(JSON.stringify({ ...base, configFile: 'config.json' }))).toThrow(`${RELAY_ENV}: configFile must be the absolute path of the CLI's config file`);
  });

  it('reads the AI replies, refusing a suggestion without a team chat to post it in', () => {
    const ai = { reply: 'suggest', provider: 'anthropic', model: 'claude-x', apiKey: 'k', url: 'http://127.0.0.1:9', instructions: '  Be kind.  ' };
    expect(relaySettingsFrom(JSON.stringify({ ...base, sink: { type: 'slack', url: 'https://chat.example.com/hook' }, ai }))?.ai).toEqual({
      mode: 'suggest',
      model: { provider: 'anthropic', model: 'claude-x', apiKey: 'k', url: 'http://127.0.0.1:9' },
      instructions: 'Be kind.',
    });
    expect(() => relaySettingsFrom(JSON.stringify({ ...base, ai }))).toThrow('AI replies are to be suggested in the team chat, but no team-chat sink is set');
    expect(relaySettingsFrom(JSON.stringify({ ...base, ai: { ...ai, reply: 'auto', instructions: ' ' } }))?.ai).toMatchObject({ mode: 'auto', instructions: undefined });
  });

  it("reads the team chat's commands, on 8792 unless told, refusing them without a team chat, with a short secret, or for Discord without a public key", () => {
    const sink = { type: 'slack', url: 'https://chat.example.com/hook' };
    expect(relaySettingsFrom(JSON.stringify({ ...base, sink, commands: { secret: 'a-signing-secret-01' } }))?.commands).toEqual({ port: 8792, secret: 'a-signing-secret-01', type: 'slack' });
    expect(() => relaySettingsFrom(JSON.stringify({ ...base, commands: { secret: 'a-signing-secret-01' } }))).toThrow('team-chat commands need a team-chat sink');
    // Discord's commands are checked with the application's public key: 32 bytes in hex
    const discord = { ...sink, type: 'discord' };
    const publicKey = 'a0'.repeat(32);
    expect(relaySettingsFrom(JSON.stringify({ ...base, sink: discord, commands: { secret: publicKey } }))?.commands).toEqual({ port: 8792, secret: publicKey, type: 'discord' });
    for (const secret of ['a-signing-secret-01', 'a0'.repeat(31), `${'a0'.repeat(31)}zz`])
      expect(() => relaySettingsFrom(JSON.stringify({ ...base, sink: discord, commands: { secret } }))).toThrow("Discord's commands are checked with the application's public key: the commands secret must be its 64 hex characters");
    expect(() => relaySettingsFrom(JSON.stringify({ ...base, sink, commands: { secret: 'short' } }))).toThrow('a secret of at least 16 characters');
    // a Teams token that is not base64 would sign with an empty key
    const teams = { type: 'teams', url: 'https://chat.example.com/hook' };
    expect(() => relaySettingsFrom(JSON.stringify({ ...base, sink: teams, commands: { secret: '!!!!!!!!!!!!!!!!!!!!' } }))).toThrow("Teams' security token is the base64 text");
    const token = Buffer.from('sixteen-byte-key!').toString('base64');
    expect(relaySettingsFrom(JSON.stringify({ ...base, sink: teams, commands: { secret: token } }))?.commands).toMatchObject({ type: 'teams' });
    expect(() => relaySettingsFrom(JSON.stringify({ ...base, sink, commands: { secret: 'a-signing-secret-01', port: 70000 } }))).toThrow('port must be from 1 to 65535, got 70000');
  });

  it.each([
    [JSON.stringify({ ...base, ai: { reply: 'always', provider: 'openai', model: 'm' } }), 'the AI reply mode must be one of suggest, auto, got "always"'],
    [JSON.stringify({ ...base, ai: { reply: 'auto', provider: 'mistral', model: 'm' } }), 'the AI provider must be one of openai, anthropic, ollama, got "mistral"'],
    [JSON.stringify({ ...base, ai: { reply: 'auto', provider: 'openai' } }), 'no AI model is selected (`brandwire model set <id>`)'],
    [JSON.stringify({ ...base, ai: { reply: 'auto', provider: 'openai', model: 'm', url: 'file:///x' } }), 'the AI url must be an http(s) URL, got "file:///x"'],
    ['not json', `${RELAY_ENV} is not JSON`],
    [JSON.stringify({ token: 'k' }), `${RELAY_ENV}: endpoint must be the service's http(s) URL`],
    [JSON.stringify({ endpoint: 'http://x' }), `${RELAY_ENV}: token (the key to read signals with) is missing`],
    [
      JSON.stringify({ endpoint: 'http://relay:RELAYPW@127.0.0.1:8080/bw', token: 'k' }),
      `${RELAY_ENV}: endpoint must not carry a user name or password (the key goes in the Authorization header): give http://127.0.0.1:8080/bw`,
    ],
    [JSON.stringify({ ...base, sink: { url: 'ftp://chat' } }), 'the team chat url must be an http(s) URL, got "ftp://chat"'],
    [JSON.stringify({ ...base, sink: { type: 'pager', url: 'https://chat' } }), 'the team-chat type must be one of slack, teams, discord, webhook, got "pager"'],
  ])('refuses %s, saying why', (raw, message) => {
    expect(() => relaySettingsFrom(raw)).toThrow(message);
  });
});

describe('scopeNeededBy', () => {
  const base = { endpoint: 'http://127.0.0.1:8080', token: 'bw_key', sink: { type: 'slack', url: 'https://chat.example.com/hook' } };
  const ai = (reply: string): object => ({ reply, provider: 'openai', model: 'gpt-x', apiKey: 'k' });

  it('asks a key to write only when AI replies are sent to customers', () => {
    const needs = (given: object): string | undefined => {
      const settings = relaySettingsFrom(JSON.stringify({ ...base, ...given }));
      return settings && scopeNeededBy(settings).scope;
    };
    expect([needs({}), needs({ ai: ai('suggest') }), needs({ ai: ai('auto') })]).toEqual(['BrandRead', 'BrandRead', 'BrandWrite']);
  });
});
