import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '@brandwire/client';
import { LiveService, TEST_TOKENS } from '@brandwire/client/testing';
import { ServiceKey } from './service-key';

/** The service's answer to a key it does not know (GET /api/agent/me, say), as the client throws it. */
const UNKNOWN_KEY = new ApiError(401, 'UNAUTHORIZED', 'unknown key');
const RETRY_MS = 6_000;

describe('the key the gateway uses, read again from the config file while the service refuses it', () => {
  let live: LiveService;
  let dir: string;
  let configFile: string;
  let lines: string[];
  const stop = new AbortController();
  const store = (token: string, endpoint = live.url): void => writeFileSync(configFile, JSON.stringify({ endpoint, token }), { mode: 0o600 });
  const keyOf = (token: string, needs: 'BrandRead' | 'BrandWrite' = 'BrandRead'): ServiceKey => {
    store(token);
    return new ServiceKey({ endpoint: live.url, token, configFile, needs: { scope: needs, why: needs === 'BrandWrite' ? 'send AI replies (gateway.ai.reply auto)' : 'read the signals' }, stop: new AbortController().signal }, (line) => lines.push(line));
  };

  beforeAll(async () => {
    live = await LiveService.start();
  });
  afterAll(async () => {
    stop.abort();
    await live.stop();
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gateway-service-key-'));
    configFile = join(dir, 'config.json');
    lines = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('takes a key it was refused before once `brandwire login` stored it again (the service knows it now)', async () => {
    const key = keyOf(TEST_TOKENS.writer);
    expect(key.refuses(UNKNOWN_KEY, TEST_TOKENS.writer)).toBe(true);
    store(TEST_TOKENS.admin);
    await key.retryAfterRefusal(TEST_TOKENS.writer, RETRY_MS, stop.signal);
    expect(key.inUse().token).toBe(TEST_TOKENS.admin);

    expect(key.refuses(UNKNOWN_KEY, TEST_TOKENS.admin)).toBe(true);
    store(TEST_TOKENS.writer);
    await key.retryAfterRefusal(TEST_TOKENS.admin, RETRY_MS, stop.signal);
    expect(key.inUse().token).toBe(TEST_TOKENS.writer);
    key.accepted(TEST_TOKENS.writer);
    expect(lines.map((line) => line.replace(/ \(UNAUTHORIZED.*/, ''))).toEqual([
      `error: the service at ${live.url} refused the gateway's key`,
      `error: the service at ${live.url} refused the new key in ${configFile}`,
      "the service accepts the gateway's key: relaying goes on",
    ]);
  }, 20_000);

  it('says once that the service accepts the new key, though a refusal of the key used before comes after', async () => {
    const key = keyOf(TEST_TOKENS.writer);
    key.refuses(UNKNOWN_KEY, TEST_TOKENS.writer);
    store(TEST_TOKENS.admin);
    await key.retryAfterRefusal(TEST_TOKENS.writer, RETRY_MS, stop.signal);
    const { token } = key.inUse();
    key.accepted(token);
    // a relay that was still reading with the key used before
    expect(key.refuses(UNKNOWN_KEY, TEST_TOKENS.writer)).toBe(true);
    key.accepted(token);
    expect(lines.filter((line) => line.includes('relaying goes on'))).toEqual([`the service accepts the new key in ${configFile}: relaying goes on`]);
  }, 20_000);

  it('does not take a key that cannot do what the relays need, saying so once, nor one the service does not know', async () => {
    const key = keyOf(TEST_TOKENS.writer, 'BrandWrite');
    key.refuses(UNKNOWN_KEY, TEST_TOKENS.writer);
    store('bw_unknown_to_the_service');
    await key.retryAfterRefusal(TEST_TOKENS.writer, 3_000, stop.signal);
    store(TEST_TOKENS.reader);
    await key.retryAfterRefusal(TEST_TOKENS.writer, 5_000, stop.signal);
    expect(key.inUse().token).toBe(TEST_TOKENS.writer);
    expect(lines.slice(1)).toEqual([
      `error: the service at ${live.url} refused the new key in ${configFile} (UNAUTHORIZED: it was revoked, or the service does not know it); nothing is relayed until it has a valid one. Run \`brandwire login\` (or \`brandwire setup <key>\`): the gateway reads the new key from ${configFile} by itself, without a restart`,
      `error: the new key in ${configFile} ("viewer") has the scope BrandRead, but the gateway needs BrandWrite to send AI replies (gateway.ai.reply auto): it does not take it, and relays nothing until it has a valid key. Run \`brandwire login\` (or \`brandwire setup <key>\`) with a BrandWrite key`,
    ]);

    store(TEST_TOKENS.admin);
    await key.retryAfterRefusal(TEST_TOKENS.writer, RETRY_MS, stop.signal);
    expect(key.inUse().token).toBe(TEST_TOKENS.admin);
    expect(lines.join('\n')).not.toMatch(/cli-test|bw_unknown/);
  }, 20_000);
});
