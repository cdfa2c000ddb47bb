import type { Store } from '@brandwire/store';

export interface RoomPageCacheLimits {
  /** memory for pages (their bytes and what keeping them costs), least recently read room dropped first; 0 keeps nothing */
  maxBytes: number;
  /** changes remembered for reads still under way; a read older than the oldest remembered change is not kept */
  recentChanges: number;
}

/** What keeping one page and one room costs beyond the answer's bytes (map entries, objects), roughly. */
const PAGE_OVERHEAD = 160;
const ROOM_OVERHEAD = 200;
const RECENT_CHANGES = 10_000;

interface RoomPages {
  cost: number;
  byMax: Map<number, Buffer>;
}

/**
 * The answers of `GET /api/agent/rooms/{userKey}/messages`, as bytes, kept until their room changes.
 * Agents' screens read the same rooms again and again and most reads find nothing new; a page read again is
 * served without reading or shaping the rows.
 *
 * The journal tells of every write to a room once it has ended; the room's pages are dropped then. A read takes
 * a stamp before it reads the rows, and its answer is kept only if its room did not change since. That holds
 * only while this process is the database's one writer (the embedded SQLite file is one service's); with
 * PostgreSQL other instances write too, so there the cache keeps nothing.
 */
export class RoomPageCache {
  /** least recently read first */
  private readonly rooms = new Map<string, RoomPages>();
  /** the stamp of each room's last change, oldest first */
  private readonly changes = new Map<string, number>();
  private lastStamp = 0;
  /** changes up to this stamp are forgotten */
  private forgottenUpTo = 0;
  private cost = 0;

  constructor(private readonly limits: RoomPageCacheLimits) {}

  /** A cache told of every change of the store's rooms; one that keeps nothing when other processes may write. */
  static following(store: Store, maxBytes: number): RoomPageCache {
    const cache = new RoomPageCache({ maxBytes: store.dialect === 'sqlite' ? maxBytes : 0, recentChanges: RECENT_CHANGES });
    if (cache.enabled) store.journal.onRoomChange((channelKey, userKey) => cache.roomChanged(channelKey, userKey));
    return cache;
  }

  get enabled(): boolean {
    return this.limits.maxBytes > 0;
  }

  /** Take it before reading a room's rows and hand it to `remember` with the answer made of them. */
  stamp(): number {
    return this.lastStamp;
  }

  roomChanged(channelKey: string, userKey: string): void {
    const room = roomKeyOf(channelKey, userKey);
    this.dropRoom(room);
    this.changes.delete(room);
    this.changes.set(room, ++this.lastStamp);
    if (this.changes.size > this.limits.recentChanges) {
      const [oldest, stamp] = this.changes.entries().next().value as [string, number];
      this.changes.delete(oldest);
      this.forgottenUpTo = stamp;
    }
  }

  /** Keeps the answer unless its room changed since `stamp` was taken. */
  remember(channelKey: string, userKey: string, max: number, stamp: number, answer: unknown): void {
    if (!this.enabled) return;
    const room = roomKeyOf(channelKey, userKey);
    if (stamp < this.forgottenUpTo || (this.changes.get(room) ?? 0) > stamp) return;
    const json = JSON.stringify(answer);
    // a buffer of its own: a small Buffer.from() shares an 8 KB pool slab, which one kept page would hold whole
    const body = Buffer.allocUnsafeSlow(Buffer.byteLength(json));
    body.write(json);
    const pageCost = body.length + PAGE_OVERHEAD;
    if (pageCost + ROOM_OVERHEAD + 2 * room.length > this.limits.maxBytes / 8) return;

    const pages = this.rooms.get(room) ?? { cost: ROOM_OVERHEAD + 2 * room.length, byMax: new Map<number, Buffer>() };
    if (!this.rooms.has(room)) this.cost += pages.cost;
    const replaced = pages.byMax.get(max);
    if (replaced) {
      pages.cost -= replaced.length + PAGE_OVERHEAD;
      this.cost -= replaced.length + PAGE_OVERHEAD;
    }
    pages.byMax.set(max, body);
    pages.cost += pageCost;
    this.cost += pageCost;
    this.rooms.delete(room);
    this.rooms.set(room, pages);
    for (const [oldest] of this.rooms) {
      if (this.cost <= this.limits.maxBytes) break;
      this.dropRoom(oldest);
    }
  }

  /** The kept answer of the page, if its room has not changed since it was read. */
  lookup(channelKey: string, userKey: string, max: number): Buffer | undefined {
    const room = roomKeyOf(channelKey, userKey);
    const pages = this.rooms.get(room);
    const body = pages?.byMax.get(max);
    if (!pages || !body) return undefined;
    this.rooms.delete(room);
    this.rooms.set(room, pages);
    return body;
  }

  /** Memory the kept pages cost, as counted against `maxBytes`. */
  get size(): number {
    return this.cost;
  }

  private dropRoom(room: string): void {
    const pages = this.rooms.get(room);
    if (!pages) return;
    this.rooms.delete(room);
    this.cost -= pages.cost;
  }
}

/** The channel key's length first, so no two rooms share a key whatever their keys hold. */
function roomKeyOf(channelKey: string, userKey: string): string {
  return `${channelKey.length}:${channelKey}${userKey}`;
}
