import type { BrandwireClient } from './client';
import type { ConversationResponse } from './retrieval-types';

export interface ConversationStreamOptions {
  /** one channel (brand key); every channel the key sees when left out */
  channel?: string;
  /** called after each page with the running count of conversations and lines read */
  onPage?: (progress: { conversations: number; lines: number }) => void;
}

/** Every conversation of the channels, with its lines, in pages: what `knowledge build` loads. */
export function streamConversations(client: BrandwireClient, options: ConversationStreamOptions = {}): AsyncIterable<ConversationResponse> {
  void client;
  void options;
  throw new Error('streamConversations: being written');
}
