import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { TEST_TOKENS } from '@brandwire/client/testing';
import { CliSandbox, cleanEnv, runCli } from './test-support/cli';

const PACK = resolve(__dirname, '../scripts/pack.mjs');
const run = promisify(execFile);

describe('the packed tool installed with npm install -g', () => {
  let s: CliSandbox;
  let dir: string;
  let bin: string;

  beforeAll(async () => {
    s = await CliSandbox.start();
    dir = mkdtempSync(join(tmpdir(), 'brandwire-pack-'));
    const tarball = (await run(process.execPath, [PACK, dir], { encoding: 'utf8' })).stdout.trim();
    // every dependency is in npm's cache after `npm ci`
    // npm keeps the machine's CA bundle: the registry is reached through a proxy whose CA only that bundle holds
    // (Node 24's own CA store does not), and dependencies missing from the cache are fetched
    const npmEnv = cleanEnv({ NODE_EXTRA_CA_CERTS: process.env['NODE_EXTRA_CA_CERTS'] });
    await run('npm', ['install', '--global', '--prefix', join(dir, 'global'), '--prefer-offline', '--no-audit', '--no-fund', tarball], { env: npmEnv });
    bin = join(dir, 'global', 'bin', 'brandwire');
  }, 180_000);
  afterAll(async () => {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs from the global prefix, with the bundled client reaching the service', async () => {
    const env = { BRANDWIRE_ENDPOINT: s.url, BRANDWIRE_TOKEN: TEST_TOKENS.writer, BRANDWIRE_CONFIG_DIR: join(dir, 'config') };
    const envRun = await runCli(['env', '--json'], { env }, bin);
    expect({ code: envRun.code, stderr: envRun.stderr }).toEqual({ code: 0, stderr: '' });
    expect(envRun.json()).toMatchObject({ ok: true, launcherPath: join(dir, 'global', 'lib', 'node_modules', '@brandwire', 'cli', 'bin', 'brandwire') });
    const whoami = await runCli(['whoami', '--json'], { env }, bin);
    expect({ code: whoami.code, stdout: whoami.stdout, stderr: whoami.stderr }).toEqual({ code: 0, stdout: expect.stringContaining('"ok":true'), stderr: '' });
    expect(whoami.json()).toMatchObject({ ok: true, name: 'agent', scope: 'BrandWrite' });
  });
});
