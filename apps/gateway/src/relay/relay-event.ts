import type { MessageItem, SignalEvent } from '@brandwire/client';
import { withoutEscapeSequences } from '@brandwire/domain';
import type { TeamChatType } from './relay-settings';

/** A signal with its content, as the relays receive it. */
export interface RelayEvent {
  /** `<brandKey>:<seq>.<part>`, the same on every delivery of it: receivers drop repeats by it */
  id: string;
  kind: string;
  brandKey: string;
  userKey: string;
  seq: number;
  /** ISO 8601 */
  at: string;
  /** what the customer or the agent wrote (message, agent) */
  text?: string;
  /** true when the text could not be read: the message is no longer among its room's latest 300 */
  textUnavailable?: true;
  /** the bubble (agent, deleted) */
  serial?: string;
  /** ended only, when the service ended the consultation: why (agent_end, bot, block), and the bot event handed off to */
  reason?: string;
  botEvent?: string;
  /** personal_info only, and only to the CRM: team chats are told that consent was given, never the values */
  nickname?: string;
  phoneNumber?: string;
}

/** Whether a signal is relayed: an agent send's acceptance is not (its journal entry follows with the text). */
export function isRelayed(event: SignalEvent): boolean {
  return !(event.kind === 'agent' && event.signal['phase'] === 'accepted');
}

/** Whether the signal's text has to be read from the room (the signals carry none). */
export function needsContent(event: SignalEvent): boolean {
  return event.kind === 'message' || event.kind === 'agent';
}

export function relayEventOf(event: SignalEvent, content: MessageItem | undefined): RelayEvent {
  const s = event.signal;
  const seq = Number(s['seq']);
  const relayed: RelayEvent = {
    id: `${String(s['brandKey'])}:${event.id ?? `${seq}.consent`}`,
    kind: event.kind,
    brandKey: String(s['brandKey']),
    userKey: String(s['userKey']),
    seq,
    at: new Date(Number(s['timestampUnixMs'])).toISOString(),
  };
  if (needsContent(event)) {
    if (content) relayed.text = content.text;
    else relayed.textUnavailable = true;
  }
  if (typeof s['serial'] === 'string') relayed.serial = s['serial'];
  if (event.kind === 'ended') {
    if (typeof s['reason'] === 'string') relayed.reason = s['reason'];
    if (typeof s['botEvent'] === 'string') relayed.botEvent = s['botEvent'];
  }
  if (event.kind === 'personal_info') {
    if (typeof s['nickname'] === 'string') relayed.nickname = s['nickname'];
    if (typeof s['phoneNumber'] === 'string') relayed.phoneNumber = s['phoneNumber'];
  }
  return relayed;
}

const UNAVAILABLE = '(its text could not be read from its room, so it is not relayed)';

/** One line for a person reading the team chat; `shown` makes what customers and agents wrote safe to show there. */
export function teamChatLine(e: RelayEvent, shown: (written: string) => string = (written) => written): string {
  const where = `[${e.brandKey}]`;
  switch (e.kind) {
    case 'message':
      return e.text === undefined ? `${where} ${e.userKey} wrote a message ${UNAVAILABLE}` : `${where} ${e.userKey}: ${shown(e.text)}`;
    case 'agent':
      return e.text === undefined ? `${where} an agent wrote to ${e.userKey} ${UNAVAILABLE}` : `${where} agent → ${e.userKey}: ${shown(e.text)}`;
    case 'reference':
      return `${where} ${e.userKey} started a consultation`;
    case 'ended':
      return `${where} the consultation with ${e.userKey} ended${whyEnded(e, shown)}`;
    case 'expired':
      return `${where} the consultation with ${e.userKey} expired`;
    case 'deleted':
      return `${where} a message to ${e.userKey} was deleted (${e.serial ?? '?'})`;
    case 'personal_info':
      return `${where} ${e.userKey} agreed to share their nickname and phone number`;
    case 'ai_suggestion':
      return `${where} AI suggests for ${e.userKey}: ${shown(e.text ?? '')}`;
    case 'ai_handoff':
      return `${where} ${e.userKey} needs an agent: ${e.text ?? 'the AI has no answer'}`;
    default:
      return `${where} ${e.kind} (${e.userKey})`;
  }
}

function whyEnded(e: RelayEvent, shown: (written: string) => string): string {
  switch (e.reason) {
    case 'agent_end':
      return ': an agent ended it';
    case 'bot':
      return `: it was handed to the chatbot${e.botEvent === undefined ? '' : ` (${shown(e.botEvent)})`}`;
    case 'block':
      return ': the customer was blocked';
    case undefined:
    default:
      return '';
  }
}

/** The longest message each team chat takes (Discord refuses more than 2,000 characters, Teams about 28 KB). */
const LONGEST: Readonly<Record<Exclude<TeamChatType, 'webhook'>, number>> = { slack: 40_000, teams: 20_000, discord: 2_000 };
const CUT = ' … (cut)';

/** The body a target of this type takes: team chats a message, `webhook` the event itself with that message as `line`. */
export function bodyFor(type: TeamChatType, e: RelayEvent, withPersonalInfo: boolean): Record<string, unknown> {
  switch (type) {
    case 'slack':
      // a customer's `<!channel>` or `<https://…|disguised link>` is shown as typed, never acted on
      return { text: cut(teamChatLine(e, shownWith(slackEscaped)), LONGEST.slack) };
    case 'teams':
      return { text: cut(teamChatLine(e, shownWith(markdownEscaped)), LONGEST.teams) };
    case 'discord':
      // a customer's @everyone or <@id> pings no one
      return { content: cut(teamChatLine(e, shownWith(markdownEscaped)), LONGEST.discord), allowed_mentions: { parse: [] } };
    case 'webhook': {
      const { nickname, phoneNumber, ...event } = e;
      const personal = withPersonalInfo ? { ...(nickname !== undefined && { nickname }), ...(phoneNumber !== undefined && { phoneNumber }) } : {};
      // to a team chat, `thread` names the customer: one that threads by it sends it back with a command typed there
      return { ...event, ...personal, line: teamChatLine(e, withoutEscapeSequences), ...(!withPersonalInfo && { thread: `${e.brandKey}:${e.userKey}` }) };
    }
  }
}

/**
 * What a customer or an agent wrote, as a team chat shows it: without escape sequences and bidi overrides (a
 * reversed `exe.txt` reads as a harmless name), then with the chat's markup escaped.
 */
function shownWith(escaped: (text: string) => string): (written: string) => string {
  return (written) => escaped(withoutEscapeSequences(written));
}

/** Slack's control characters as entities: a `<!channel>` or `<https://…|link>` someone typed is shown, never acted on. */
export function slackEscaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A customer's `[your order](https://…)` or **bold** is shown as typed: no disguised link, no markup. */
export function markdownEscaped(text: string): string {
  return text.replace(/[\\`*_~|[\]()>#]/g, (c) => `\\${c}`);
}

/**
 * The escaped line cut to what the chat takes: never inside a character (a surrogate pair), after a backslash that
 * escaped the character cut off, or inside Slack's `&amp;`, `&lt;` or `&gt;`.
 */
function cut(text: string, longest: number): string {
  if (text.length <= longest) return text;
  let end = longest - CUT.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  const kept = text
    .slice(0, end)
    .replace(/\\+$/, (run) => (run.length % 2 === 1 ? run.slice(1) : run))
    .replace(/&[a-z]{0,3}$/, '');
  return `${kept}${CUT}`;
}
