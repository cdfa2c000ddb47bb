import type { BrandwireClient } from './client';
import type { ConversationExportPage, ConversationResponse } from './retrieval-types';

export interface ConversationStreamOptions {
  /** one channel (brand key); every channel the key sees when left out */
  channel?: string;
  /** called after each page with the running count of conversations and lines read */
  onPage?: (progress: { conversations: number; lines: number }) => void;
  /** conversations per request, 1 to 1000 (default 500) */
  pageSize?: number;
}

const MAX_PAGE_SIZE = 1000;
/**
 * Pages of 1000 conversations (about 1.2 MB of JSON) read no faster than pages of 500 here, but their large
 * buffers left the building process about 30 MB larger at its peak.
 */
const DEFAULT_PAGE_SIZE = 500;
/**
 * Channels read at the same time. A page's `next` is known only once the page has arrived, so one channel
 * leaves the service idle while a page travels and is parsed; a second channel's request fills that gap.
 */
const CHANNELS_AT_ONCE = 2;

interface Arrival {
  channel: string;
  page: ConversationExportPage;
}

/**
 * Every conversation of the channels, with its lines, in pages: what `knowledge build` loads. The next page of a
 * channel is requested as soon as its page arrives, so the service reads it while the consumer works on this
 * one; with several channels two are read at a time and their pages come in the order they arrive (each
 * channel's own pages in order).
 */
export async function* streamConversations(client: BrandwireClient, options: ConversationStreamOptions = {}): AsyncIterable<ConversationResponse> {
  const channels = options.channel !== undefined ? [options.channel] : await channelsOf(client);
  const max = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(options.pageSize ?? DEFAULT_PAGE_SIZE)));
  const inFlight = new Map<string, Promise<Arrival>>();
  const request = (channel: string, after?: string): void => {
    const arrival = client.exportConversations({ brand: channel, max, ...(after === undefined ? {} : { after }) }).then((page) => ({ channel, page }));
    // a consumer that stops early never awaits the pages still in flight: their failures must not go unhandled
    arrival.catch(() => undefined);
    inFlight.set(channel, arrival);
  };
  let started = 0;
  const startNextChannel = (): void => {
    const channel = channels[started];
    if (channel === undefined) return;
    started += 1;
    request(channel);
  };
  for (let i = 0; i < CHANNELS_AT_ONCE; i++) startNextChannel();

  const progress = { conversations: 0, lines: 0 };
  while (inFlight.size > 0) {
    const { channel, page } = await Promise.race(inFlight.values());
    inFlight.delete(channel);
    if (page.next !== null) request(channel, page.next);
    else startNextChannel();
    for (const conversation of page.conversations) {
      progress.lines += conversation.lines.length;
      progress.conversations += 1;
      yield conversation;
    }
    options.onPage?.({ ...progress });
  }
}

async function channelsOf(client: BrandwireClient): Promise<string[]> {
  const me = await client.me();
  return me.brands.flatMap((brand) => brand.channels.map((channel) => channel.key));
}
