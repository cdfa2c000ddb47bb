import type { TeamChatType } from '../relay/relay-settings';

/** Beside the query API (8790) and `knowledge view` (8791). */
export const DEFAULT_COMMANDS_PORT = 8792;
/** The path a team chat posts its commands to. */
export const COMMANDS_PATH = '/chat/command';

/** Where the team chat's commands come in (loopback: a tunnel or a proxy brings them there) and how they are checked. */
export interface CommandSettings {
  port: number;
  /**
   * Slack's signing secret, Teams' outgoing-webhook security token, the Discord application's public key (64 hex
   * characters), or the bearer token of a `webhook` team chat
   */
  secret: string;
  /** the team chat's type, which says how its requests are signed and answered */
  type: TeamChatType;
}

const DISCORD_KEY_WANTED =
  "Discord's commands are checked with the application's public key: the commands secret must be its 64 hex characters (Developer Portal, the application's General Information)";

export function commandSettingsOf(given: unknown, teamChat: TeamChatType | undefined): CommandSettings | undefined {
  if (given === undefined) return undefined;
  const { port = DEFAULT_COMMANDS_PORT, secret } = given as { port?: unknown; secret?: unknown };
  if (teamChat === undefined) throw new Error('team-chat commands need a team-chat sink (`brandwire setup <key> --sink-type … --sink-url …`)');
  if (typeof secret !== 'string' || secret.length < 16) throw new Error('team-chat commands need a secret of at least 16 characters (`brandwire setup <key> --commands-secret …`)');
  if (teamChat === 'discord' && !isDiscordPublicKey(secret)) throw new Error(DISCORD_KEY_WANTED);
  if (teamChat === 'teams' && !isTeamsToken(secret)) throw new Error("Teams' security token is the base64 text Teams showed when the outgoing webhook was made (16 bytes or more)");
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`the team-chat commands port must be from 1 to 65535, got ${JSON.stringify(port)}`);
  return { port, secret, type: teamChat };
}

/** Teams' outgoing-webhook security token: base64 of at least 16 bytes (a text that is not would sign with no key). */
export function isTeamsToken(secret: string): boolean {
  return /^[A-Za-z0-9+/]+={0,2}$/.test(secret) && secret.length % 4 === 0 && Buffer.from(secret, 'base64').length >= 16;
}

/** A Discord application's public key: an Ed25519 key of 32 bytes, shown in hex (any other text could check nothing). */
export function isDiscordPublicKey(secret: string): boolean {
  return /^[0-9a-f]{64}$/i.test(secret);
}
