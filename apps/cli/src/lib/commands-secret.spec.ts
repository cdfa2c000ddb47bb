import { checkCommandsSecret } from './commands-secret';

describe('checkCommandsSecret', () => {
  const withSecret = (type: string | undefined, secret: string) => ({ sink: { type, url: 'https://chat.example.com/hook' }, commands: { secret } });

  it("takes the Discord application's public key (64 hex characters) and Teams' base64 token, any secret for Slack and a webhook team chat", () => {
    expect(() => checkCommandsSecret(withSecret('discord', 'A0'.repeat(32)))).not.toThrow();
    expect(() => checkCommandsSecret(withSecret('teams', Buffer.from('sixteen-byte-key').toString('base64')))).not.toThrow();
    expect(() => checkCommandsSecret(withSecret('slack', 'slack-signing-secret-01'))).not.toThrow();
    expect(() => checkCommandsSecret(withSecret(undefined, 'bearer-token-000001'))).not.toThrow();
    expect(() => checkCommandsSecret({ sink: { type: 'discord' } })).not.toThrow();
    expect(() => checkCommandsSecret(undefined)).not.toThrow();
  });

  it.each([
    ['discord', 'slack-signing-secret-01', "the team chat is Discord, whose commands are checked with the application's public key"],
    ['discord', 'a0'.repeat(31), 'must be its 64 hex characters'],
    ['discord', `${'a0'.repeat(31)}zz`, 'must be its 64 hex characters'],
    ['teams', '!!!!!!!!!!!!!!!!!!!!', 'the team chat is Teams: --commands-secret must be the base64 security token'],
    ['teams', Buffer.from('fifteen-bytes!!').toString('base64'), '16 bytes or more'],
  ])('refuses a %s secret %j as CONFIG, naming the setting', (type, secret, message) => {
    expect(() => checkCommandsSecret(withSecret(type, secret))).toThrow(
      expect.objectContaining({ code: 'CONFIG', details: { setting: 'gateway.commands.secret' }, message: expect.stringContaining(message) as unknown }),
    );
  });

  it('names the stored secret when it was not given now, and tells how to give another or remove the commands', () => {
    expect(() => checkCommandsSecret(withSecret('discord', 'slack-signing-secret-01'), 'stored')).toThrow(
      expect.objectContaining({
        message: expect.stringContaining('the stored commands secret (gateway.commands.secret) must be its 64 hex characters') as unknown,
        hint: "give the team chat's secret with `brandwire setup <key> --commands-secret <secret>`, or remove the commands with `brandwire setup <key> --no-commands`",
      }),
    );
  });
});
