import type { Store } from '@brandwire/store';

interface Page {
  roomKey: string;
  /** the room's change stamp when the page was read */
  stamp: number;
  body: Buffer;
}

export interface RoomPageCacheLimits {
  /** bytes of answers kept, least recently read dropped first; 0 keeps nothing */
  maxBytes: number;
  /** rooms whose changes are remembered; past it every page is dropped and counting starts again */
  maxRooms: number;
}

const MAX_ROOMS = 200_000;

/**
 * The answers of `GET /api/agent/rooms/{userKey}/messages`, as bytes, each valid until its room changes.
 * Agents' screens read the same rooms again and again and most reads find nothing new; a page read again is
 * served without reading or shaping the rows.
 *
 * A page is kept with the room's change stamp taken before its rows were read, and served only while the stamp
 * is still the room's: the journal tells of every write to a room once it has ended. That holds only while this
 * process is the database's one writer (the embedded SQLite file); with PostgreSQL, other instances write too,
 * so there the cache keeps nothing.
 */
export class RoomPageCache {
  private readonly pages = new Map<string, Page>();
  private readonly changes = new Map<string, number>();
  private lastStamp = 0;
  /** the stamp of every room not in `changes` */
  private floor = 0;
  private bytes = 0;

  constructor(private readonly limits: RoomPageCacheLimits) {}

  /** A cache told of every change of the store's rooms; one that keeps nothing when other processes may write. */
  static following(store: Store, maxBytes: number): RoomPageCache {
    const cache = new RoomPageCache({ maxBytes: store.dialect === 'sqlite' ? maxBytes : 0, maxRooms: MAX_ROOMS });
    store.journal.onRoomChange((channelKey, userKey) => cache.roomChanged(channelKey, userKey));
    return cache;
  }

  get enabled(): boolean {
    return this.limits.maxBytes > 0;
  }

  /** Take it before reading the room's rows and hand it to `remember` with the answer made of them. */
  stampOf(channelKey: string, userKey: string): number {
    return this.changes.get(roomKeyOf(channelKey, userKey)) ?? this.floor;
  }

  roomChanged(channelKey: string, userKey: string): void {
    if (this.changes.size >= this.limits.maxRooms) {
      this.changes.clear();
      this.pages.clear();
      this.bytes = 0;
      this.floor = ++this.lastStamp;
      return;
    }
    this.changes.set(roomKeyOf(channelKey, userKey), ++this.lastStamp);
  }

  /** Keeps the answer unless the room changed since `stamp` was taken. */
  remember(channelKey: string, userKey: string, max: number, stamp: number, answer: unknown): void {
    if (!this.enabled || stamp !== this.stampOf(channelKey, userKey)) return;
    const body = Buffer.from(JSON.stringify(answer));
    if (body.length > this.limits.maxBytes / 8) return;
    const pageKey = pageKeyOf(channelKey, userKey, max);
    this.drop(pageKey);
    this.pages.set(pageKey, { roomKey: roomKeyOf(channelKey, userKey), stamp, body });
    this.bytes += body.length;
    for (const [oldest] of this.pages) {
      if (this.bytes <= this.limits.maxBytes) break;
      this.drop(oldest);
    }
  }

  /** The kept answer, when the room has not changed since it was read. */
  lookup(channelKey: string, userKey: string, max: number): Buffer | undefined {
    const pageKey = pageKeyOf(channelKey, userKey, max);
    const page = this.pages.get(pageKey);
    if (!page) return undefined;
    if (page.stamp !== (this.changes.get(page.roomKey) ?? this.floor)) {
      this.drop(pageKey);
      return undefined;
    }
    this.pages.delete(pageKey);
    this.pages.set(pageKey, page);
    return page.body;
  }

  private drop(pageKey: string): void {
    const page = this.pages.get(pageKey);
    if (!page) return;
    this.pages.delete(pageKey);
    this.bytes -= page.body.length;
  }
}

// Channel keys hold no NUL and `max` is a number, so these keys are unambiguous whatever a user key holds.
function roomKeyOf(channelKey: string, userKey: string): string {
  return `${channelKey}\0${userKey}`;
}

function pageKeyOf(channelKey: string, userKey: string, max: number): string {
  return `${channelKey}\0${userKey}\0${max}`;
}
