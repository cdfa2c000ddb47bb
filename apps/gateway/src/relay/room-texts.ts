import type { BrandwireClient, MessageItem } from '@brandwire/client';
/** How many of a room's latest items are read and kept: a burst in a room is read once, not once per message. */
const LATEST_PAGE = 20;

/** How many rooms' latest messages are kept: a burst in a room is read once, not once per message. */
const ROOMS_KEPT = 1_000;

/** The texts of a channel's messages, read from their rooms (newest first) and kept for the messages that follow (and the other target). */
export class RoomTexts {
  private readonly rooms = new Map<string, Map<number, MessageItem>>();

  constructor(private readonly brand: string) {}

  /**
   * The item of `seq` in the room of `userKey`, read with `client` when not kept: the room's latest page, kept for
   * the signals that follow, else that one item (a gateway catching up far behind); undefined when it is not there.
   */
  async find(client: BrandwireClient, userKey: string, seq: number): Promise<MessageItem | undefined> {
    const known = this.rooms.get(userKey)?.get(seq);
    if (known) return known;
    const page = await client.messages({ brand: this.brand, userKey, max: LATEST_PAGE });
    const found = this.keep(userKey, page.messages).get(seq);
    if (found || page.messages.length < LATEST_PAGE || page.messages.some((m) => m.seq < seq)) return found;
    const [item] = (await client.messages({ brand: this.brand, userKey, max: 1, before: seq + 1 })).messages;
    return item?.seq === seq ? item : undefined;
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
