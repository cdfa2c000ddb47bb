import type { TeamChatType } from '../relay/relay-settings';

export const COMMANDS = ['/cs-close', '/cs-memo', '/cs-who'] as const;
export type CommandName = (typeof COMMANDS)[number];

/** A team-chat command as the gateway runs it. */
export interface CommandRequest {
  command: CommandName;
  /** what follows the command; with `customer` given, all that follows the customer (never split for one) */
  args: string;
  /**
   * the customer as a team chat gives it apart from the text (Discord's `customer` option), `<channel>:<customer>` or
   * the customer alone; taken whole, white space and all
   */
  customer?: string;
  /** who typed it, as the team chat names them */
  user: string;
  /** the thread it was typed in, `<channel>:<customer>` as the relay gave it; the customer then need not be named */
  thread?: string;
}

/**
 * The command in a team chat's request: Slack's slash-command form (`command`, `text`, `user_name`), Teams'
 * outgoing-webhook activity (`text` with the bot's `<at>` mention, `from.name`), or the `webhook` team chat's JSON
 * `{text, user?, thread?}`. A string saying what is wrong when it is none of them. (Discord's interactions:
 * discord-interaction.ts.)
 */
export function commandOf(type: Exclude<TeamChatType, 'discord'>, body: Buffer, contentType: string): CommandRequest | string {
  if (type === 'slack') {
    if (!contentType.startsWith('application/x-www-form-urlencoded')) return 'Slack sends its commands form-encoded';
    const form = new URLSearchParams(body.toString('utf8'));
    return parsed(`${form.get('command') ?? ''} ${form.get('text') ?? ''}`, form.get('user_name') ?? 'someone', undefined);
  }
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return 'the body is not JSON';
  }
  if (typeof json !== 'object' || json === null) return 'the body is not a JSON object';
  const given = json as { text?: unknown; user?: unknown; thread?: unknown; from?: { name?: unknown } };
  if (typeof given.text !== 'string') return 'text (the command typed) is missing';
  if (type === 'teams') return parsed(teamsText(given.text), typeof given.from?.name === 'string' ? given.from.name : 'someone', undefined);
  const thread = typeof given.thread === 'string' && given.thread !== '' ? given.thread : undefined;
  return parsed(given.text, typeof given.user === 'string' && given.user !== '' ? given.user : 'someone', thread);
}

/** Where Slack takes later answers to the slash command in its form (`response_url`, 30 minutes, 5 posts); undefined when it gives none. */
export function slackResponseUrlOf(body: Buffer): string | undefined {
  return new URLSearchParams(body.toString('utf8')).get('response_url') || undefined;
}

function parsed(typed: string, user: string, thread: string | undefined): CommandRequest | string {
  const text = typed.trim();
  const [word = ''] = text.split(/\s+/, 1);
  const command = COMMANDS.find((c) => c === word.toLowerCase());
  if (!command) return `unknown command ${JSON.stringify(word.slice(0, 40))}: ${COMMANDS.join(', ')}`;
  return { command, args: text.slice(word.length).trim(), user: user.slice(0, 100), ...(thread && { thread }) };
}

/** Teams' message text is HTML with the bot's mention in it: the command is what is left as plain text. */
function teamsText(html: string): string {
  return html
    .replace(/<at>[^<]*<\/at>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
