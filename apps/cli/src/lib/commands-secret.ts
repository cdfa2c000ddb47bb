import { CliError } from './cli-error';
import type { GatewaySettings } from './config-store';
import { EXIT } from './exit-codes';

/**
 * Refuses a team-chat commands secret that cannot be the team chat's (the gateway refuses it too, at its start):
 * Discord's is the application's public key, 64 hex characters; Teams' the base64 security token of 16 bytes or
 * more. Checked by `setup` on what it is to store, and by `gateway start` on what is stored. `source` says whether
 * the secret was given as --commands-secret just now or is the stored one (kept while the team chat's type changed).
 */
export function checkCommandsSecret(gateway: GatewaySettings | undefined, source: 'flag' | 'stored' = 'flag'): void {
  const secret = gateway?.commands?.secret;
  if (secret === undefined || secret === '') return;
  const name = source === 'flag' ? '--commands-secret' : 'the stored commands secret (gateway.commands.secret)';
  const refuse = (message: string): never => {
    throw new CliError(
      'CONFIG',
      message,
      EXIT.error,
      { setting: 'gateway.commands.secret' },
      "give the team chat's secret with `brandwire setup <key> --commands-secret <secret>`, or remove the commands with `brandwire setup <key> --no-commands`",
    );
  };
  const type = gateway?.sink?.type;
  if (type === 'discord' && !/^[0-9a-f]{64}$/i.test(secret)) {
    refuse(`the team chat is Discord, whose commands are checked with the application's public key: ${name} must be its 64 hex characters (Developer Portal, the application's General Information)`);
  }
  if (type === 'teams' && (!/^[A-Za-z0-9+/]+={0,2}$/.test(secret) || secret.length % 4 !== 0 || Buffer.from(secret, 'base64').length < 16)) {
    refuse(`the team chat is Teams: ${name} must be the base64 security token Teams showed when the outgoing webhook was made (16 bytes or more)`);
  }
}
