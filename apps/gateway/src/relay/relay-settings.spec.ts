import { RELAY_ENV, relaySettingsFrom } from './relay-settings';

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

  it.each([
    ['not json', `${RELAY_ENV} is not JSON`],
    [JSON.stringify({ token: 'k' }), `${RELAY_ENV}: endpoint must be the service's http(s) URL`],
    [JSON.stringify({ endpoint: 'http://x' }), `${RELAY_ENV}: token (the key to read signals with) is missing`],
    [JSON.stringify({ ...base, sink: { url: 'ftp://chat' } }), 'the team chat url must be an http(s) URL, got "ftp://chat"'],
    [JSON.stringify({ ...base, sink: { type: 'pager', url: 'https://chat' } }), 'the team-chat type must be one of slack, teams, discord, webhook, got "pager"'],
  ])('refuses %s, saying why', (raw, message) => {
    expect(() => relaySettingsFrom(raw)).toThrow(message);
  });
});
