import type { BrandwireClient } from './client';
import { isApiError } from './errors';
import type { ConversationResponse } from './retrieval-types';

export interface FoundConversations {
  /** the channels asked, in the order `GET /api/agent/me` lists them */
  channels: string[];
  /** the conversation on each channel that has one with this convId (more than one only when ids collide) */
  found: ConversationResponse[];
}

/** A conversation by its convId alone: asked of every channel the key may read, as `conversations()` lists them all. */
export async function findConversation(client: BrandwireClient, convId: string): Promise<FoundConversations> {
  const me = await client.me();
  const channels = me.brands.flatMap((brand) => brand.channels.map((channel) => channel.key));
  const answers = await Promise.all(
    channels.map((brand) =>
      client.conversation({ brand, convId }).catch((error: unknown) => {
        if (isApiError(error) && error.code === 'NO_CONV') return undefined;
        throw error;
      }),
    ),
  );
  return { channels, found: answers.filter((answer): answer is ConversationResponse => answer !== undefined) };
}
