import { markdownEscaped } from '../relay/relay-event';
import { COMMANDS, type CommandRequest } from './command-request';

/** Discord's interaction types the gateway takes (https://discord.com/developers/docs/interactions/receiving-and-responding). */
const PING = 1;
const APPLICATION_COMMAND = 2;
/**
 * Discord's response types: PONG, CHANNEL_MESSAGE_WITH_SOURCE (a message in the channel the command was typed in),
 * and DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE ("thinking…", edited into the answer later).
 */
const PONG = 1;
const CHANNEL_MESSAGE = 4;
const DEFERRED_CHANNEL_MESSAGE = 5;
/** The message flag EPHEMERAL: shown only to whoever typed the command. */
const EPHEMERAL = 1 << 6;
/** Discord refuses a message longer than this. */
const LONGEST = 2_000;
const CUT = ' … (cut)';

/**
 * What a Discord interaction comes to: its check of the endpoint (PING), a slash command (or a mistake of whoever
 * typed it, answered in Discord), or a request that is no interaction the gateway takes (400).
 */
export type DiscordInteraction = { kind: 'ping' } | { kind: 'command'; request: CommandRequest | string; later: LaterAnswer | undefined } | { kind: 'refused'; why: string };

/** Where a deferred answer to an interaction goes: its application's webhook with the interaction's token (valid 15 minutes). */
export interface LaterAnswer {
  applicationId: string;
  token: string;
}

interface Option {
  name?: unknown;
  value?: unknown;
}

interface Interaction {
  type?: unknown;
  application_id?: unknown;
  token?: unknown;
  data?: { name?: unknown; options?: unknown };
  member?: { user?: { username?: unknown } };
  user?: { username?: unknown };
}

/**
 * The interaction Discord posted to the application's Interactions Endpoint URL. The commands are registered as
 * `cs-close`, `cs-memo` and `cs-who` (Discord gives the name without the slash), each with a string option
 * `customer` (`<channel>:<customer>`, or the customer alone), `/cs-close` with an optional `greeting` and `/cs-memo`
 * with a `memo`; whoever typed it is `member.user` in a server, `user` in a direct message.
 */
export function discordInteractionOf(body: Buffer): DiscordInteraction {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return { kind: 'refused', why: 'the body is not JSON' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { kind: 'refused', why: 'the body is not a JSON object' };
  const interaction = json as Interaction;
  if (interaction.type === PING) return { kind: 'ping' };
  if (interaction.type !== APPLICATION_COMMAND) return { kind: 'refused', why: `the gateway takes Discord's PING (1) and slash commands (2), not interactions of type ${JSON.stringify(interaction.type)}` };
  const name = interaction.data?.name;
  if (typeof name !== 'string') return { kind: 'refused', why: 'data.name (the command) is missing' };
  const { application_id: applicationId, token } = interaction;
  const later = typeof applicationId === 'string' && applicationId !== '' && typeof token === 'string' && token !== '' ? { applicationId, token } : undefined;
  const command = COMMANDS.find((c) => c === `/${name.toLowerCase()}`);
  if (!command) return { kind: 'command', request: `unknown command ${JSON.stringify(`/${name.slice(0, 40)}`)}: ${COMMANDS.join(', ')}`, later };
  const options = Array.isArray(interaction.data?.options) ? (interaction.data.options as Option[]) : [];
  const valueOf = (wanted: string): string => {
    const value = options.find((option) => option?.name === wanted)?.value;
    return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
  };
  const customer = valueOf('customer');
  const rest = command === '/cs-memo' ? valueOf('memo') : command === '/cs-close' ? valueOf('greeting') : '';
  const username = interaction.member?.user?.username ?? interaction.user?.username;
  const user = (typeof username === 'string' && username !== '' ? username : 'someone').slice(0, 100);
  // no customer: the usage is answered, rather than the memo's first word taken for one
  if (customer === '') return { kind: 'command', request: { command, args: '', user }, later };
  // the customer and the text stay apart, as Discord gave them: `kim lee` is never the customer `kim` and text `lee …`
  return { kind: 'command', request: { command, customer, args: rest, user }, later };
}

/** Discord's answer to its PING. */
export const DISCORD_PONG = { type: PONG };

/**
 * The answer to a slash command: a message in its channel, or (`forAsker`) one only whoever typed the command sees.
 * Its text is shown as written (Markdown escaped, no one mentioned) and cut to Discord's 2,000 characters.
 */
export function discordAnswer(written: string, forAsker: boolean): { type: number; data: DiscordMessage } {
  return { type: CHANNEL_MESSAGE, data: discordMessage(written, forAsker) };
}

/** The message of an answer, as it is given at once or later (the flags of an edited answer are the deferral's). */
export interface DiscordMessage {
  content: string;
  allowed_mentions: { parse: [] };
  flags?: number;
}

export function discordMessage(written: string, forAsker: boolean): DiscordMessage {
  const text = markdownEscaped(written);
  const content = text.length <= LONGEST ? text : `${escapedWithin(written, LONGEST - CUT.length)}${CUT}`;
  return { content, allowed_mentions: { parse: [] }, ...(forAsker && { flags: EPHEMERAL }) };
}

/** "Thinking…" until the answer is edited in: in the channel, or (`forAsker`) for whoever typed the command only. */
export function discordDeferral(forAsker: boolean): { type: number; data?: { flags: number } } {
  return { type: DEFERRED_CHANNEL_MESSAGE, ...(forAsker && { data: { flags: EPHEMERAL } }) };
}

/**
 * The longest beginning of `written` whose escaped form has at most `units` UTF-16 units: cut between characters
 * (never in a surrogate pair) and before escaping (never after a lone escaping backslash).
 */
function escapedWithin(written: string, units: number): string {
  let kept = '';
  // by code point: an emoji is one step
  for (const character of written) {
    const escaped = markdownEscaped(character);
    if (kept.length + escaped.length > units) break;
    kept += escaped;
  }
  return kept;
}
