import { RoomPageCache } from './room-page-cache';

const page = (text: string) => ({ ok: true, messages: [{ text }] });
const bytes = (answer: unknown) => Buffer.from(JSON.stringify(answer));

describe('RoomPageCache', () => {
  const roomy = () => new RoomPageCache({ maxBytes: 1024 * 1024, maxRooms: 100 });

  it('gives back the answer as JSON bytes while the room is unchanged', () => {
    const cache = roomy();
    cache.remember('ch', 'amy', 100, cache.stampOf('ch', 'amy'), page('hi'));
    expect(cache.lookup('ch', 'amy', 100)).toEqual(bytes(page('hi')));
    expect(cache.lookup('ch', 'amy', 100)).toEqual(bytes(page('hi')));
  });

  it('keeps each max apart, and each room, and each channel', () => {
    const cache = roomy();
    cache.remember('ch', 'amy', 100, cache.stampOf('ch', 'amy'), page('hundred'));
    expect(cache.lookup('ch', 'amy', 1)).toBeUndefined();
    expect(cache.lookup('ch', 'bob', 100)).toBeUndefined();
    expect(cache.lookup('other', 'amy', 100)).toBeUndefined();
  });

  it('drops the page once its room changes, and only that room', () => {
    const cache = roomy();
    cache.remember('ch', 'amy', 100, cache.stampOf('ch', 'amy'), page('amy'));
    cache.remember('ch', 'bob', 100, cache.stampOf('ch', 'bob'), page('bob'));
    cache.roomChanged('ch', 'amy');
    expect(cache.lookup('ch', 'amy', 100)).toBeUndefined();
    expect(cache.lookup('ch', 'bob', 100)).toEqual(bytes(page('bob')));
  });

  it('refuses an answer read before a change of its room', () => {
    const cache = roomy();
    const stamp = cache.stampOf('ch', 'amy');
    cache.roomChanged('ch', 'amy'); // a write ended while the rows were being read
    cache.remember('ch', 'amy', 100, stamp, page('maybe stale'));
    expect(cache.lookup('ch', 'amy', 100)).toBeUndefined();
    cache.remember('ch', 'amy', 100, cache.stampOf('ch', 'amy'), page('fresh'));
    expect(cache.lookup('ch', 'amy', 100)).toEqual(bytes(page('fresh')));
  });

  it('drops the least recently read pages past its byte limit', () => {
    const size = bytes(page('x'.repeat(100))).length;
    const cache = new RoomPageCache({ maxBytes: size * 8, maxRooms: 100 });
    for (const user of ['u0', 'u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7']) cache.remember('ch', user, 100, cache.stampOf('ch', user), page('x'.repeat(100)));
    expect(cache.lookup('ch', 'u0', 100)).toBeDefined(); // read again: now the most recent
    cache.remember('ch', 'u8', 100, cache.stampOf('ch', 'u8'), page('x'.repeat(100)));
    expect(cache.lookup('ch', 'u1', 100)).toBeUndefined();
    expect(cache.lookup('ch', 'u0', 100)).toBeDefined();
    expect(cache.lookup('ch', 'u8', 100)).toBeDefined();
  });

  it('does not keep an answer larger than an eighth of its limit', () => {
    const cache = new RoomPageCache({ maxBytes: 800, maxRooms: 100 });
    cache.remember('ch', 'amy', 100, cache.stampOf('ch', 'amy'), page('x'.repeat(100)));
    expect(cache.lookup('ch', 'amy', 100)).toBeUndefined();
  });

  it('drops everything when it has counted changes of too many rooms, and works on', () => {
    const cache = new RoomPageCache({ maxBytes: 1024 * 1024, maxRooms: 3 });
    const stale = cache.stampOf('ch', 'amy');
    cache.remember('ch', 'bob', 100, cache.stampOf('ch', 'bob'), page('bob'));
    for (const user of ['c1', 'c2', 'c3', 'c4']) cache.roomChanged('ch', user);
    expect(cache.lookup('ch', 'bob', 100)).toBeUndefined();
    cache.remember('ch', 'amy', 100, stale, page('read before the reset'));
    expect(cache.lookup('ch', 'amy', 100)).toBeUndefined();
    cache.remember('ch', 'amy', 100, cache.stampOf('ch', 'amy'), page('amy'));
    expect(cache.lookup('ch', 'amy', 100)).toEqual(bytes(page('amy')));
  });

  it('keeps nothing with a limit of 0', () => {
    const cache = new RoomPageCache({ maxBytes: 0, maxRooms: 100 });
    expect(cache.enabled).toBe(false);
    cache.remember('ch', 'amy', 100, cache.stampOf('ch', 'amy'), page('hi'));
    expect(cache.lookup('ch', 'amy', 100)).toBeUndefined();
  });
});
