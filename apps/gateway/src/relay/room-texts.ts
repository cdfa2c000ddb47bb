import type { BrandwireClient, MessageItem } from '@brandwire/client';
import { MAX_MESSAGES_LIMIT } from '@brandwire/domain';

/** How many rooms' latest messages are kept: a burst in a room is read once, not once per message. */
const ROOMS_KEPT = 1_000;

/** The texts of a channel's messages, read from their rooms (newest first) and kept for the messages that follow (and the other target). */
export class RoomTexts {
  private readonly rooms = new Map<string, Map<number, MessageItem>>();

  constructor(private readonly brand: string) {}

  /** The message of `seq` in the room of `userKey`, read with `client` when not kept; undefined when it is not among the room's latest 300. */
  async find(client: BrandwireClient, userKey: string, seq: number): Promise<MessageItem | undefined> {
    const known = this.rooms.get(userKey)?.get(seq);
    if (known) return known;
    // the room messages API's largest page: a message further back cannot be read (see README)
    for (const max of [20, MAX_MESSAGES_LIMIT]) {
      const page = await client.messages({ brand: this.brand, userKey, max });
      const room = this.keep(userKey, page.messages);
      const found = room.get(seq);
      if (found) return found;
      // the page reaches back past it: a bigger page would not hold it either
      if (page.messages.length < max || page.messages.some((m) => m.seq < seq)) return undefined;
    }
    return undefined;
  }

  private keep(userKey: string, messages: readonly MessageItem[]): Map<number, MessageItem> {
    this.rooms.delete(userKey);
    if (this.rooms.size >= ROOMS_KEPT) {
      const oldest = this.rooms.keys().next();
      if (!oldest.done) this.rooms.delete(oldest.value);
    }
    const room = new Map(messages.map((m) => [m.seq, m]));
    this.rooms.set(userKey, room);
    return room;
  }
}
