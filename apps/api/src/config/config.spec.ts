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

  it('lets a key make 6,000 requests a minute unless told otherwise; 0 sets no limit', () => {
    expect(loadConfig({}).rateLimitPerKey).toBe(6_000);
    expect(loadConfig({ RATE_LIMIT_PER_KEY: '120' }).rateLimitPerKey).toBe(120);
    expect(loadConfig({ RATE_LIMIT_PER_KEY: '0' }).rateLimitPerKey).toBe(0);
  });

  it.each(['-5', '2.5', 'many'])('refuses RATE_LIMIT_PER_KEY=%s, naming it', (value) => {
    expect(() => loadConfig({ RATE_LIMIT_PER_KEY: value })).toThrow(new ConfigError(`RATE_LIMIT_PER_KEY must be a whole number from 0 up, got "${value}"`));
  });

  it('works SQLite on a thread of its own unless SQLITE_THREAD=0', () => {
    expect(loadConfig({}).sqliteThread).toBe(true);
    expect(loadConfig({ SQLITE_THREAD: '1' }).sqliteThread).toBe(true);
    expect(loadConfig({ SQLITE_THREAD: '0' }).sqliteThread).toBe(false);
  });

  it.each(['yes', 'true', '2'])('refuses SQLITE_THREAD=%s, naming it', (value) => {
    expect(() => loadConfig({ SQLITE_THREAD: value })).toThrow(new ConfigError(`SQLITE_THREAD must be 1 (on) or 0 (off), got "${value}"`));
  });
});

describe('loadConfig: sizes, levels and hosts', () => {
  it('takes a JSON body limit in bytes or with kb, mb or gb', () => {
    expect(loadConfig({}).jsonBodyLimit).toBe('1mb');
    expect(loadConfig({ JSON_BODY_LIMIT: '512kb' }).jsonBodyLimit).toBe('512kb');
    expect(loadConfig({ JSON_BODY_LIMIT: '100000' }).jsonBodyLimit).toBe('100000');
    expect(() => loadConfig({ JSON_BODY_LIMIT: '0mb' })).toThrow(ConfigError);
  });

  it('takes an attachment host with a port, refuses one with a path', () => {
    expect(loadConfig({ ATTACHMENT_HOST: 'CDN.Example.com:8443' }).attachmentHost).toBe('cdn.example.com:8443');
    expect(() => loadConfig({ ATTACHMENT_HOST: 'cdn.example.com/x' })).toThrow(ConfigError);
  });

  it('takes an IANA time zone as the runtime spells it, never an offset', () => {
    expect(loadConfig({}).timeZone).toBe('Asia/Seoul');
    expect(loadConfig({ BRANDWIRE_TIMEZONE: 'europe/berlin' }).timeZone).toBe('Europe/Berlin');
    expect(() => loadConfig({ BRANDWIRE_TIMEZONE: '+09:00' })).toThrow(new ConfigError('BRANDWIRE_TIMEZONE must be an IANA time zone such as Asia/Seoul, got "+09:00"'));
  });

  it('never shows a password of a URL it refuses', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://ops:s3cr@t@127.0.0.1:99999/db' })).toThrow(new ConfigError('DATABASE_URL must be a URL, got "postgres://ops:***@127.0.0.1:99999/db"'));
    expect(() => loadConfig({ DATABASE_URL: 'postgres://ops@[::1/db?sslmode=off&password=s3cret' })).toThrow(new ConfigError('DATABASE_URL must be a URL, got "postgres://ops@[::1/db?sslmode=off&password=***"'));
  });

  it('takes a delivery lease of a second or more: a shorter one runs out between its renewals', () => {
    expect(loadConfig({ DELIVERY_LEASE_MS: '1000' }).deliveryLeaseMs).toBe(1000);
    expect(() => loadConfig({ DELIVERY_LEASE_MS: '300' })).toThrow(new ConfigError('DELIVERY_LEASE_MS must be a whole number from 1000 up (a shorter lease runs out between its renewals), got "300"'));
  });

  it('believes X-Forwarded-For only from the proxies TRUST_PROXY names, by count or by address', () => {
    expect(loadConfig({}).trustProxy).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, loopback ,fd00::1' }).trustProxy).toEqual(['10.0.0.0/8', 'loopback', 'fd00::1']);
    for (const raw of ['true', 'everyone', '10.0.0.0/33', '1.5']) {
      expect(() => loadConfig({ TRUST_PROXY: raw })).toThrow(`TRUST_PROXY must be the number of proxies in front of the service (such as 1), or their addresses and ranges separated by commas (such as 10.0.0.0/8, loopback, uniquelocal), got "${raw}"`);
    }
  });

  it('refuses a seed that is a folder', () => {
    expect(() => loadConfig({ BRANDWIRE_SEED: '/tmp' })).toThrow(new ConfigError('BRANDWIRE_SEED must name a file, and /tmp is a folder'));
  });

  it.each([
    ['0.5', 'JSON_BODY_LIMIT must be a whole number of bytes, got "0.5"'],
    ['1.5b', 'JSON_BODY_LIMIT must be a whole number of bytes, got "1.5b"'],
    ['0', 'JSON_BODY_LIMIT must be at least 1 byte, got "0"'],
    ['0.0001kb', 'JSON_BODY_LIMIT must be at least 1 byte, got "0.0001kb" (0 bytes)'],
    ['1\tmb', 'JSON_BODY_LIMIT must be a size such as 1mb, 512kb or 100000 (bytes), got "1\tmb"'],
  ])('refuses JSON_BODY_LIMIT=%j, which would refuse every JSON body or none', (value, message) => {
    expect(() => loadConfig({ JSON_BODY_LIMIT: value })).toThrow(new ConfigError(message));
  });

  it('takes fractions of kb, mb and gb, and sizes written with a b or a space', () => {
    for (const value of ['1.5kb', '0.5mb', '100b', '2 MB']) expect(loadConfig({ JSON_BODY_LIMIT: value }).jsonBodyLimit).toBe(value);
  });
});

describe('loadConfig: the messenger and the public address', () => {
  it.each(['ключ', 'tab\there', 'caf\u00e9', ' padded', 'padded '])('refuses UPSTREAM_PARTNER_KEY=%j, which no HTTP header carries as it is', (value) => {
    expect(() => loadConfig({ UPSTREAM_PARTNER_KEY: value })).toThrow(
      new ConfigError('UPSTREAM_PARTNER_KEY must be visible ASCII characters (! to ~, spaces only between them), as the X-Partner-Key header carries it'),
    );
  });

  it('takes a partner key of visible ASCII characters', () => {
    expect(loadConfig({ UPSTREAM_PARTNER_KEY: 'pk_Live-123~!$' }).upstreamPartnerKey).toBe('pk_Live-123~!$');
    expect(loadConfig({ UPSTREAM_PARTNER_KEY: 'two words' }).upstreamPartnerKey).toBe('two words');
  });

  it.each(['UPSTREAM_URL', 'BRANDWIRE_PUBLIC_URL'])('refuses %s with a query or a fragment, which the paths added to it would end up in', (name) => {
    for (const value of ['http://127.0.0.1:18474/?x=1', 'http://127.0.0.1:18474?', 'https://brandwire.example.com/#top']) {
      expect(() => loadConfig({ [name]: value })).toThrow(new ConfigError(`${name} must be a base URL, without a query (?) or fragment (#), got "${value}"`));
    }
    expect(loadConfig({ [name]: 'https://brandwire.example.com/base/' })).toMatchObject({ [name === 'UPSTREAM_URL' ? 'upstreamUrl' : 'publicUrl']: 'https://brandwire.example.com/base' });
  });

  it('takes a DATABASE_URL with a query, as PostgreSQL URLs have', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://ops@127.0.0.1/db?sslmode=require' }).databaseUrl).toBe('postgres://ops@127.0.0.1/db?sslmode=require');
  });
});
