import { type BrandwireClient, type MessageItem, isApiError } from '@brandwire/client';
import { messageOf } from '../gateway-log';
import type { CommandRequest } from './command-request';
import { MEMO_LONGEST, type Memos } from './memos';

/** How long the key's channel list is used before it is asked for again. */
const CHANNELS_FOR_MS = 60_000;

interface Customer {
  channel: string;
  customer: string;
  /** the command's words after the customer */
  rest: string;
}

/** Runs `/cs-who`, `/cs-close` and `/cs-memo` with the gateway's key; the answer is a line for the team chat. */
export class TeamCommands {
  private channels: { keys: string[]; until: number } | undefined;

  constructor(
    private readonly client: BrandwireClient,
    private readonly memos: Memos,
    private readonly report: (line: string) => void,
  ) {}

  async run(request: CommandRequest): Promise<string> {
    let target: Customer | string;
    try {
      target = await this.customerOf(request);
    } catch (error) {
      return `${request.command} failed: ${describe(error)}`;
    }
    if (typeof target === 'string') return target;
    // who asked what, for whom; never a memo's text or a greeting
    this.report(`team-chat command ${request.command} by ${request.user} for ${target.channel}:${target.customer}`);
    try {
      switch (request.command) {
        case '/cs-who':
          return await this.who(target);
        case '/cs-close':
          return await this.close(target);
        case '/cs-memo':
          return this.memo(target, request.user);
      }
    } catch (error) {
      return `${request.command} for ${target.customer} (${target.channel}) failed: ${describe(error)}`;
    }
  }

  private async who({ channel, customer }: Customer): Promise<string> {
    const room = (await this.client.messages({ brand: channel, userKey: customer, max: 30 })).messages;
    const state = stateOf(room);
    const lastMessage = room.find((item) => item.kind === 'message');
    const lines = [
      `${customer} (${channel}): ${state}${lastMessage ? `; last wrote ${when(lastMessage.timestampUnixMs)}: ${JSON.stringify(lastMessage.text.slice(0, 200))}` : ''}`,
    ];
    const memos = this.memos.of(channel, customer);
    if (memos.length > 0) lines.push('Memos:', ...memos.map((memo) => `- ${when(Date.parse(memo.at))} ${memo.by}: ${memo.text}`));
    return lines.join('\n');
  }

  private async close({ channel, customer, rest }: Customer): Promise<string> {
    const ended = await this.client.end({ brandKey: channel, userKey: customer, ...(rest !== '' && { greeting: rest }) });
    if (!ended.ok) return `the consultation with ${customer} (${channel}) was not ended: the messenger answered ${ended.code}${ended.message ? ` (${ended.message})` : ''}`;
    if (!ended.sessionId) return `no consultation was in progress with ${customer} (${channel})`;
    return `ended the consultation with ${customer} (${channel})${rest !== '' ? ', after the greeting' : ''}`;
  }

  private memo({ channel, customer, rest }: Customer, user: string): string {
    if (rest === '') return 'usage: /cs-memo <customer> <memo> (in a customer\'s thread: /cs-memo <memo>)';
    if ([...rest].length > MEMO_LONGEST) return `a memo is at most ${MEMO_LONGEST} characters`;
    this.memos.add(channel, customer, { at: new Date().toISOString(), by: user, text: rest });
    return `memo kept for ${customer} (${channel}); /cs-who ${channel}:${customer} shows the memos`;
  }

  /** The customer: the thread's, else the first word (`<channel>:<customer>`, or a customer of one channel of the key). */
  private async customerOf(request: CommandRequest): Promise<Customer | string> {
    const channels = await this.channelKeys();
    if (request.thread !== undefined) {
      const split = splitCustomer(request.thread, channels);
      if (split.channel !== undefined) return { channel: split.channel, customer: split.customer, rest: request.args };
    }
    const [word = ''] = request.args.split(/\s+/);
    const rest = request.args.slice(word.length).trim();
    if (word === '') return `usage: ${request.command} <customer>${request.command === '/cs-who' ? '' : request.command === '/cs-close' ? ' [greeting]' : ' <memo>'} (the customer as <channel>:<customer> when several channels have one of that name)`;
    const split = splitCustomer(word, channels);
    if (split.channel !== undefined) return { channel: split.channel, customer: split.customer, rest };
    if (channels.length === 1) return { channel: channels[0] as string, customer: word, rest };
    const having: string[] = [];
    for (const channel of channels) {
      const page = await this.client.messages({ brand: channel, userKey: word, max: 1 });
      if (page.messages.length > 0) having.push(channel);
    }
    if (having.length === 1) return { channel: having[0] as string, customer: word, rest };
    if (having.length === 0) return `no customer ${word} on the channels of the gateway's key (${channels.join(', ')})`;
    return `${word} is a customer of ${having.join(' and ')}: say which, e.g. ${request.command} ${having[0] ?? ''}:${word}`;
  }

  private async channelKeys(): Promise<string[]> {
    if (this.channels && this.channels.until > Date.now()) return this.channels.keys;
    const keys = (await this.client.me()).brands.flatMap((brand) => brand.channels.map((channel) => channel.key));
    this.channels = { keys, until: Date.now() + CHANNELS_FOR_MS };
    return keys;
  }
}

/** `<channel>:<customer>` when the part before the first colon is a channel of the key; the whole is a customer otherwise. */
function splitCustomer(text: string, channels: readonly string[]): { channel?: string; customer: string } {
  const colon = text.indexOf(':');
  if (colon > 0 && channels.includes(text.slice(0, colon)) && colon < text.length - 1) return { channel: text.slice(0, colon), customer: text.slice(colon + 1) };
  return { customer: text };
}

function stateOf(newestFirst: readonly MessageItem[]): string {
  if (newestFirst.length === 0) return 'no messages';
  const last = newestFirst.find((item) => item.kind === 'ended' || item.kind === 'expired' || item.kind === 'reference' || item.kind === 'message');
  if (last?.kind === 'ended' || last?.kind === 'expired') return `no consultation in progress (it ${last.kind} ${when(last.timestampUnixMs)})`;
  const count = newestFirst.findIndex((item) => item.kind === 'reference');
  return `consultation in progress${count > 0 ? ` (${count} messages since it started)` : ''}`;
}

function when(unixMs: number): string {
  return `${new Date(unixMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function describe(error: unknown): string {
  if (isApiError(error)) return error.code === 'FORBIDDEN' ? `the gateway's key may not do this (${error.message})` : `${error.code}, ${error.message}`;
  return messageOf(error);
}
