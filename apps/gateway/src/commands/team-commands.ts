import { type BrandwireClient, isApiError } from '@brandwire/client';
import { withoutEscapeSequences } from '@brandwire/domain';
import { messageOf } from '../gateway-log';
import type { CommandRequest } from './command-request';
import { readCustomerRoom, roomLine, when } from './customer-room';
import { MEMOS_KEPT, MEMO_LONGEST, type Memos } from './memos';

/** How long the key's channel list is used before it is asked for again. */
const CHANNELS_FOR_MS = 60_000;

interface Customer {
  channel: string;
  customer: string;
  /** the command's words after the customer */
  rest: string;
}

/** What a command came to: done, a mistake of whoever typed it, or a failure of the service. */
export interface CommandOutcome {
  outcome: 'done' | 'mistake' | 'failed';
  text: string;
  /** for whoever asked only: it shows a customer's words and the agents' memos */
  private?: true;
}

const done = (text: string): CommandOutcome => ({ outcome: 'done', text });
const mistake = (text: string): CommandOutcome => ({ outcome: 'mistake', text });

/** Runs `/cs-who`, `/cs-close` and `/cs-memo` with the gateway's key; the answer is a line for the team chat. */
export class TeamCommands {
  private channels: { keys: string[]; until: number } | undefined;

  constructor(
    /** a client with the gateway's key in use, which may change while it runs */
    private readonly client: () => BrandwireClient,
    private readonly memos: Memos,
    private readonly report: (line: string) => void,
  ) {}

  async run(request: CommandRequest): Promise<CommandOutcome> {
    // a name on one line, as the log and the memos show it
    const user = withoutEscapeSequences(request.user).replace(/\s+/g, ' ').trim() || 'someone';
    let target: Customer | CommandOutcome;
    try {
      target = await this.customerOf(request);
    } catch (error) {
      return { outcome: 'failed', text: `${request.command} failed: ${describe(error)}` };
    }
    if ('outcome' in target) return target;
    // who asked what, for whom; never a memo's text or a greeting
    this.report(`team-chat command ${request.command} by ${JSON.stringify(user)} for ${target.channel}:${target.customer}`);
    try {
      switch (request.command) {
        case '/cs-who':
          return await this.who(target);
        case '/cs-close':
          return await this.close(target);
        case '/cs-memo':
          return this.memo(target, user);
      }
    } catch (error) {
      return { outcome: 'failed', text: `${request.command} for ${target.customer} (${target.channel}) failed: ${describe(error)}` };
    }
  }

  private async who({ channel, customer }: Customer): Promise<CommandOutcome> {
    const lines = [roomLine(channel, customer, await readCustomerRoom(this.client(), channel, customer))];
    const memos = this.memos.of(channel, customer);
    if (memos.length > 0) lines.push('Memos:', ...memos.map((memo) => `- ${when(Date.parse(memo.at))} ${memo.by}: ${memo.text}`));
    return { outcome: 'done', text: lines.join('\n'), private: true };
  }

  private async close({ channel, customer, rest }: Customer): Promise<CommandOutcome> {
    const ended = await this.client().end({ brandKey: channel, userKey: customer, ...(rest !== '' && { greeting: rest }) });
    if (!ended.ok) return { outcome: 'failed', text: `the consultation with ${customer} (${channel}) was not ended: the messenger answered ${ended.code}${ended.message ? ` (${ended.message})` : ''}` };
    if (!ended.sessionId) return done(`no consultation was in progress with ${customer} (${channel})`);
    return done(`ended the consultation with ${customer} (${channel})${rest !== '' ? ', after the greeting' : ''}`);
  }

  private memo({ channel, customer, rest }: Customer, user: string): CommandOutcome {
    const text = withoutEscapeSequences(rest).trim();
    if (text === '') return mistake("usage: /cs-memo <customer> <memo> (in a customer's thread: /cs-memo <memo>)");
    if ([...text].length > MEMO_LONGEST) return mistake(`a memo is at most ${MEMO_LONGEST} characters`);
    const full = this.memos.of(channel, customer).length >= MEMOS_KEPT;
    this.memos.add(channel, customer, { at: new Date().toISOString(), by: user, text });
    return done(`memo kept for ${customer} (${channel})${full ? `; the oldest was dropped (the latest ${MEMOS_KEPT} are kept)` : ''}; /cs-who ${channel}:${customer} shows the memos`);
  }

  /**
   * The customer: the thread's (which must name a channel of the key; see threadCustomer), else the one given apart
   * from the text, else the first word (`<channel>:<customer>`, or a customer of one channel of the key); a customer
   * with no messages is none.
   */
  private async customerOf(request: CommandRequest): Promise<Customer | CommandOutcome> {
    const channels = await this.channelKeys();
    if (request.thread !== undefined) {
      const split = splitCustomer(request.thread, channels);
      if (split.channel === undefined) return mistake(`the thread ${JSON.stringify(request.thread)} names no customer of the channels of the gateway's key (${channels.join(', ')})`);
      if (!(await this.exists(split.channel, split.customer))) return noCustomer(split.customer, [split.channel]);
      return this.threadCustomer(request, { channel: split.channel, customer: split.customer }, channels);
    }
    // a customer given apart (Discord's option) is taken whole: its text is never split into a customer and the rest
    const word = request.customer ?? request.args.split(/\s+/, 1)[0] ?? '';
    const rest = request.customer !== undefined ? request.args : request.args.slice(word.length).trim();
    if (word === '') return mistake(`usage: ${request.command} <customer>${USAGE_TAIL[request.command]} (the customer as <channel>:<customer> when several channels have one of that name)`);
    const split = splitCustomer(word, channels);
    const candidates = split.channel !== undefined ? [split.channel] : channels;
    const having: string[] = [];
    for (const channel of candidates) if (await this.exists(channel, split.customer)) having.push(channel);
    if (having.length === 1) return { channel: having[0] as string, customer: split.customer, rest };
    if (having.length === 0) return noCustomer(split.customer, candidates);
    return mistake(`${split.customer} is a customer of ${having.join(' and ')}: say which, e.g. ${request.command} ${having[0] ?? ''}:${split.customer}`);
  }

  /**
   * A command typed in the thread of `own` is for `own` only. Its first word naming `own` is dropped, as the customer
   * named outside a thread is. A first word naming another customer is refused, never taken as the start of a
   * greeting or a memo: `<channel>:<customer>`, or exactly a customer of the key's channels (for `/cs-who`, which
   * takes nothing but a customer, any other word). Any other first word starts the greeting or the memo.
   */
  private async threadCustomer(request: CommandRequest, own: { channel: string; customer: string }, channels: readonly string[]): Promise<Customer | CommandOutcome> {
    const [word = ''] = request.args.split(/\s+/, 1);
    const named = splitCustomer(word, channels);
    if (named.customer === own.customer && (named.channel ?? own.channel) === own.channel) return { ...own, rest: request.args.slice(word.length).trim() };
    const another = word !== '' && (named.channel !== undefined || request.command === '/cs-who' || (await this.existsOnAny(named.customer, channels)));
    if (!another) return { ...own, rest: request.args };
    return mistake(`this thread is ${own.customer}'s (${own.channel}): a command typed here is for ${own.customer}; for ${word}, type it outside the thread: ${request.command} ${word}${USAGE_TAIL[request.command]}`);
  }

  private async existsOnAny(customer: string, channels: readonly string[]): Promise<boolean> {
    for (const channel of channels) if (await this.exists(channel, customer)) return true;
    return false;
  }

  private async exists(channel: string, customer: string): Promise<boolean> {
    return (await this.client().messages({ brand: channel, userKey: customer, max: 1 })).messages.length > 0;
  }

  private async channelKeys(): Promise<string[]> {
    if (this.channels && this.channels.until > Date.now()) return this.channels.keys;
    const keys = (await this.client().me()).brands.flatMap((brand) => brand.channels.map((channel) => channel.key));
    this.channels = { keys, until: Date.now() + CHANNELS_FOR_MS };
    return keys;
  }
}

const USAGE_TAIL: Record<CommandRequest['command'], string> = { '/cs-who': '', '/cs-close': ' [greeting]', '/cs-memo': ' <memo>' };

function noCustomer(customer: string, channels: readonly string[]): CommandOutcome {
  return mistake(`no customer ${customer} on ${channels.length === 1 ? channels[0] : `the channels of the gateway's key (${channels.join(', ')})`}`);
}

/** `<channel>:<customer>` when the part before the first colon is a channel of the key; the whole is a customer otherwise. */
function splitCustomer(text: string, channels: readonly string[]): { channel?: string; customer: string } {
  const colon = text.indexOf(':');
  if (colon > 0 && channels.includes(text.slice(0, colon)) && colon < text.length - 1) return { channel: text.slice(0, colon), customer: text.slice(colon + 1) };
  return { customer: text };
}

function describe(error: unknown): string {
  if (isApiError(error)) return error.code === 'FORBIDDEN' ? `the gateway's key may not do this (${error.message})` : `${error.code}, ${error.message}`;
  return messageOf(error);
}
