import { RoomPageCache } from './room-page-cache';

const page = (text: string) => ({ ok: true, messages: [{ text }] });
const bytes = (answer: unknown) => Buffer.from(JSON.stringify(answer));

describe('RoomPageCache', () => {
  const roomy = () => new RoomPageCache({ maxBytes: 1024 * 1024, recentChanges: 100 });
  const keep = (cache: RoomPageCache, channelKey: string, userKey: string, max: number, answer: unknown) =>
    cache.remember(channelKey, userKey, max, cache.stamp(), answer);

  it('gives back the answer as JSON bytes while the room is unchanged', () => {
    const cache = roomy();
    keep(cache, 'ch', 'amy', 100, page('hi'));
    expect(cache.lookup('ch', 'amy', 100)).toEqual(bytes(page('hi')));
    expect(cache.lookup('ch', 'amy', 100)).toEqual(bytes(page('hi')));
  });

  it('keeps each max apart, and each room, and each channel', () => {
    const cache = roomy();
    keep(cache, 'ch', 'amy', 100, page('hundred'));
    expect(cache.lookup('ch', 'amy', 1)).toBeUndefined();
    expect(cache.lookup('ch', 'bob', 100)).toBeUndefined();
    expect(cache.lookup('other', 'amy', 100)).toBeUndefined();
    // the same characters split differently between channel and user key are another room
    keep(cache, 'a:b', 'c', 100, page('one'));
    expect(cache.lookup('a', 'b:c', 100)).toBeUndefined();
  });

  it('drops every page of a room once it changes, and only that room', () => {
    const cache = roomy();
    keep(cache, 'ch', 'amy', 100, page('amy'));
    keep(cache, 'ch', 'amy', 1, page('amy, one'));
    keep(cache, 'ch', 'bob', 100, page('bob'));
    cache.roomChanged('ch', 'amy');
    expect(cache.lookup('ch', 'amy', 100)).toBeUndefined();
    expect(cache.lookup('ch', 'amy', 1)).toBeUndefined();
    expect(cache.lookup('ch', 'bob', 100)).toEqual(bytes(page('bob')));
  });

  it('refuses an answer read before a change of its room, but not one read before a change of another', () => {
    const cache = roomy();
    const stamp = cache.stamp();
    cache.roomChanged('ch', 'amy'); // a write ended while the rows were being read
    cache.remember('ch', 'amy', 100, stamp, page('maybe stale'));
    expect(cache.lookup('ch', 'amy', 100)).toBeUndefined();
    cache.remember('ch', 'bob', 100, stamp, page('bob'));
    expect(cache.lookup('ch', 'bob', 100)).toEqual(bytes(page('bob')));
    keep(cache, 'ch', 'amy', 100, page('fresh'));
    expect(cache.lookup('ch', 'amy', 100)).toEqual(bytes(page('fresh')));
  });

  it('refuses a read older than the changes it still remembers', () => {
    const cache = new RoomPageCache({ maxBytes: 1024 * 1024, recentChanges: 3 });
    const stamp = cache.stamp();
    for (const user of ['c1', 'c2', 'c3', 'c4']) cache.roomChanged('ch', user);
    // c1's change is forgotten: whether amy changed since the stamp is no longer known
    cache.remember('ch', 'amy', 100, stamp, page('read long ago'));
    expect(cache.lookup('ch', 'amy', 100)).toBeUndefined();
    keep(cache, 'ch', 'amy', 100, page('amy'));
    expect(cache.lookup('ch', 'amy', 100)).toEqual(bytes(page('amy')));
  });

  it('drops the least recently read rooms past its memory limit, counting what keeping them costs', () => {
    const answer = page('x'.repeat(1000));
    const cache = new RoomPageCache({ maxBytes: 8 * 1500, recentChanges: 100 });
    for (const user of ['u0', 'u1', 'u2', 'u3', 'u4', 'u5', 'u6']) keep(cache, 'ch', user, 100, answer);
    expect(cache.size).toBeGreaterThan(7 * bytes(answer).length);
    expect(cache.lookup('ch', 'u0', 100)).toBeDefined(); // read again: now the most recent
    keep(cache, 'ch', 'u7', 100, answer);
    keep(cache, 'ch', 'u8', 100, answer);
    expect(cache.size).toBeLessThanOrEqual(8 * 1500);
    expect(cache.lookup('ch', 'u1', 100)).toBeUndefined();
    expect(cache.lookup('ch', 'u0', 100)).toBeDefined();
    expect(cache.lookup('ch', 'u8', 100)).toBeDefined();
  });

  it('counts a page kept again for the same max once', () => {
    const cache = roomy();
    keep(cache, 'ch', 'amy', 100, page('first'));
    const once = cache.size;
    keep(cache, 'ch', 'amy', 100, page('again'));
    expect(cache.size).toBe(once);
    cache.roomChanged('ch', 'amy');
    expect(cache.size).toBe(0);
  });

  it('does not keep an answer larger than an eighth of its limit', () => {
    const cache = new RoomPageCache({ maxBytes: 4000, recentChanges: 100 });
    keep(cache, 'ch', 'amy', 100, page('x'.repeat(600)));
    expect(cache.lookup('ch', 'amy', 100)).toBeUndefined();
  });

  it('keeps each answer in memory of its own, not in a shared pool slab', () => {
    const cache = roomy();
    keep(cache, 'ch', 'amy', 100, page('small'));
    const body = cache.lookup('ch', 'amy', 100) as Buffer;
    expect(body.buffer.byteLength).toBe(body.length);
  });

  it('keeps nothing with a limit of 0', () => {
    const cache = new RoomPageCache({ maxBytes: 0, recentChanges: 100 });
    expect(cache.enabled).toBe(false);
    keep(cache, 'ch', 'amy', 100, page('hi'));
    expect(cache.lookup('ch', 'amy', 100)).toBeUndefined();
  });
});
