import type { BrandwireClient } from './client';
import type { ConversationExportPage, ConversationResponse } from './retrieval-types';

export interface ConversationStreamOptions {
  /** one channel (brand key); every channel the key sees when left out */
  channel?: string;
  /** called after each page with the running count of conversations and lines read */
  onPage?: (progress: { conversations: number; lines: number }) => void;
  /** conversations per request, 1 to 1000 (default 1000: the fewer requests, the faster) */
  pageSize?: number;
}

const MAX_PAGE_SIZE = 1000;

interface PageRequest {
  /** index into the channels */
  channel: number;
  after?: string;
}

/**
 * Every conversation of the channels, with its lines, in pages: what `knowledge build` loads. The next page is
 * requested as soon as a page arrives, so the service reads it while the consumer works on this one.
 */
export async function* streamConversations(client: BrandwireClient, options: ConversationStreamOptions = {}): AsyncIterable<ConversationResponse> {
  const channels = options.channel !== undefined ? [options.channel] : await channelsOf(client);
  const max = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(options.pageSize ?? MAX_PAGE_SIZE)));
  const fetchPage = (request: PageRequest): Promise<ConversationExportPage> => {
    const page = client.exportConversations({ brand: channels[request.channel] as string, max, ...(request.after === undefined ? {} : { after: request.after }) });
    // a consumer that stops early never awaits the prefetched page: its failure must not go unhandled
    page.catch(() => undefined);
    return page;
  };
  const progress = { conversations: 0, lines: 0 };
  let request: PageRequest | undefined = channels.length > 0 ? { channel: 0 } : undefined;
  let pending = request === undefined ? undefined : fetchPage(request);
  while (request !== undefined && pending !== undefined) {
    const page = await pending;
    request = nextRequest(page, request, channels.length);
    pending = request === undefined ? undefined : fetchPage(request);
    for (const conversation of page.conversations) {
      progress.lines += conversation.lines.length;
      progress.conversations += 1;
      yield conversation;
    }
    options.onPage?.({ ...progress });
  }
}

/** The page after `page`: the rest of its channel, else the first page of the next channel. */
function nextRequest(page: ConversationExportPage, current: PageRequest, channelCount: number): PageRequest | undefined {
  if (page.next !== null) return { channel: current.channel, after: page.next };
  return current.channel + 1 < channelCount ? { channel: current.channel + 1 } : undefined;
}

async function channelsOf(client: BrandwireClient): Promise<string[]> {
  const me = await client.me();
  return me.brands.flatMap((brand) => brand.channels.map((channel) => channel.key));
}
