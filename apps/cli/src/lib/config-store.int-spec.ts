import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSession, readConfig, writeConfig } from './config-store';

describe('the config file', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'brandwire-config-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('is written readable by its owner only, in a folder only its owner enters, also over an open file', () => {
    const path = join(dir, 'nested', 'config.json');
    writeConfig(path, { token: 'bw_a' });
    writeFileSync(join(dir, 'nested', 'other'), '');
    writeConfig(path, { token: 'bw_b', channel: 'acme-kakao' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'nested')).mode & 0o777).toBe(0o700);
    expect(readConfig(path)).toEqual({ token: 'bw_b', channel: 'acme-kakao' });
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true);
  });

  it('is empty when missing, and an error naming the file when it is not a JSON object', () => {
    expect(readConfig(join(dir, 'none.json'))).toEqual({});
    writeFileSync(join(dir, 'array.json'), '[]');
    expect(() => readConfig(join(dir, 'array.json'))).toThrow(expect.objectContaining({ code: 'CONFIG', message: expect.stringContaining('array.json is not a valid config file') }));
  });

  it('is overridden by BRANDWIRE_TOKEN and BRANDWIRE_ENDPOINT; the stored default channel goes with the stored key only', () => {
    writeConfig(join(dir, 'config.json'), { token: 'bw_stored', endpoint: 'http://stored:1', channel: 'acme-kakao' });
    expect(loadSession({ BRANDWIRE_CONFIG_DIR: dir })).toMatchObject({ token: 'bw_stored', tokenSource: 'config', endpoint: 'http://stored:1', endpointSource: 'config', channel: 'acme-kakao' });
    expect(loadSession({ BRANDWIRE_CONFIG_DIR: dir, BRANDWIRE_TOKEN: 'bw_env', BRANDWIRE_ENDPOINT: 'http://env:2' })).toMatchObject({
      token: 'bw_env',
      tokenSource: 'env',
      endpoint: 'http://env:2',
      endpointSource: 'env',
      channel: undefined,
    });
    expect(loadSession({ BRANDWIRE_CONFIG_DIR: dir, BRANDWIRE_TOKEN: 'bw_stored' })).toMatchObject({ tokenSource: 'env', channel: 'acme-kakao' });
    expect(loadSession({ BRANDWIRE_CONFIG_DIR: join(dir, 'empty') })).toMatchObject({ token: undefined, tokenSource: 'none', endpoint: 'http://127.0.0.1:8080', endpointSource: 'default' });
  });
});
