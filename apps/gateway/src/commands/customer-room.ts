import type { BrandwireClient, MessageItem } from '@brandwire/client';
import { MAX_MESSAGES_LIMIT, firstCharacters } from '@brandwire/domain';

/** Enough for most rooms: the largest page is read only when this one does not reach back far enough. */
const FIRST_PAGE = 30;

/** A customer's room as `/cs-who` reads it: its latest items, newest first, and whether they are all it holds. */
export interface CustomerRoom {
  newestFirst: readonly MessageItem[];
  whole: boolean;
}

/**
 * The latest items of the room, reaching back to the customer's last message and the start of the consultation
 * when the room API's largest page holds them (agents may have written many bubbles since).
 */
export async function readCustomerRoom(client: BrandwireClient, channel: string, customer: string): Promise<CustomerRoom> {
  const first = (await client.messages({ brand: channel, userKey: customer, max: FIRST_PAGE })).messages;
  if (first.length < FIRST_PAGE) return { newestFirst: first, whole: true };
  if (reachesBackFarEnough(first)) return { newestFirst: first, whole: false };
  const largest = (await client.messages({ brand: channel, userKey: customer, max: MAX_MESSAGES_LIMIT })).messages;
  return { newestFirst: largest, whole: largest.length < MAX_MESSAGES_LIMIT };
}

/** `/cs-who`'s first line: the consultation's state and the customer's last message. */
export function roomLine(channel: string, customer: string, room: CustomerRoom): string {
  const lastMessage = room.newestFirst.find((item) => item.kind === 'message');
  const wrote = lastMessage
    ? `; last wrote ${when(lastMessage.timestampUnixMs)}: ${JSON.stringify(firstCharacters(lastMessage.text, 200))}`
    : room.whole
      ? ''
      : `; their last message is no longer among the room's latest ${MAX_MESSAGES_LIMIT} messages`;
  return `${customer} (${channel}): ${stateOf(room)}${wrote}`;
}

export function when(unixMs: number): string {
  return `${new Date(unixMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Whether the items hold the customer's last message and what says whether the consultation is in progress, and since when. */
function reachesBackFarEnough(newestFirst: readonly MessageItem[]): boolean {
  const state = stateItemOf(newestFirst);
  const started = state?.kind === 'ended' || state?.kind === 'expired' || newestFirst.some((item) => item.kind === 'reference');
  return started && newestFirst.some((item) => item.kind === 'message');
}

function stateItemOf(newestFirst: readonly MessageItem[]): MessageItem | undefined {
  return newestFirst.find((item) => item.kind === 'ended' || item.kind === 'expired' || item.kind === 'reference' || item.kind === 'message');
}

function stateOf({ newestFirst, whole }: CustomerRoom): string {
  const last = stateItemOf(newestFirst);
  if (last?.kind === 'ended' || last?.kind === 'expired') return `no consultation in progress (it ${last.kind} ${when(last.timestampUnixMs)})`;
  const count = newestFirst.findIndex((item) => item.kind === 'reference');
  if (count < 0 && !whole) return `consultation in progress (it started before the room's latest ${MAX_MESSAGES_LIMIT} messages)`;
  return `consultation in progress${count > 0 ? ` (${count} message${count === 1 ? '' : 's'} since it started)` : ''}`;
}
