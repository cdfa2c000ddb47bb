import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('keeps 32 MB of room pages unless told otherwise; 0 turns them off', () => {
    expect(loadConfig({}).roomCacheBytes).toBe(32 * 1024 * 1024);
    expect(loadConfig({ ROOM_CACHE_MB: '8' }).roomCacheBytes).toBe(8 * 1024 * 1024);
    expect(loadConfig({ ROOM_CACHE_MB: '0' }).roomCacheBytes).toBe(0);
  });

  it.each(['-1', '1.5', 'lots'])('refuses ROOM_CACHE_MB=%s, naming it', (value) => {
    expect(() => loadConfig({ ROOM_CACHE_MB: value })).toThrow(new ConfigError(`ROOM_CACHE_MB must be a whole number from 0 up, got "${value}"`));
  });
});
