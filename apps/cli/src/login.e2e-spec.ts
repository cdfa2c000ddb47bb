import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_TOKENS } from '@brandwire/client/testing';
import { type Browser, type Page, chromium } from 'playwright-core';
import { CliSandbox, spawnCli } from './test-support/cli';

/** Debian's Chromium (installed by .ci/run), driven headless. */
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

interface LoginRun {
  /** the pairing URL and code the tool printed on stderr */
  url: string;
  code: string;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** Starts `brandwire login --console --json` and waits for the URL and code it prints. */
async function startLogin(s: CliSandbox, config: string, extra: string[] = [], env: Record<string, string> = {}): Promise<LoginRun> {
  const args = extra.includes('--open') ? ['login', '--json', ...extra.filter((a) => a !== '--open')] : ['login', '--console', '--json', ...extra];
  const child = spawnCli(args, { env: { BRANDWIRE_ENDPOINT: s.url, BRANDWIRE_CONFIG_DIR: config, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin?.end();
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  const started = Date.now();
  let match: RegExpExecArray | null = null;
  while (!(match = /open (http:\/\/\S+\/pair\?code=(\w{4}-\w{4}))\n/.exec(stderr))) {
    if (Date.now() - started > 15_000) throw new Error(`login printed no pairing URL:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return { url: match[1] as string, code: match[2] as string, done };
}

async function unlock(page: Page, url: string, key: string): Promise<void> {
  await page.goto(url);
  await page.fill('#admin-key', key);
  await page.click('#continue');
}

describe('login: device pairing approved on the pairing page in Chromium', () => {
  let s: CliSandbox;
  let browser: Browser;

  beforeAll(async () => {
    s = await CliSandbox.start();
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  });
  afterAll(async () => {
    await browser?.close();
    await s.stop();
  });

  it('pairs the tool end to end: login prints the code, an Admin approves in the page, the key is stored, whoami works', async () => {
    const config = s.configDir('paired');
    const login = await startLogin(s, config, ['--channel', 'acme-kakao']);
    expect(login.url).toBe(`${s.url}/pair?code=${login.code}`);

    const page = await browser.newPage();
    await unlock(page, login.url, TEST_TOKENS.admin);
    expect(await page.inputValue('#user-code')).toBe(login.code);
    await page.waitForSelector('#grant', { state: 'visible' });
    expect(await page.textContent('#approver')).toContain('Approving as "ops"');
    const brands = page.locator('input[name=brand]');
    expect(await brands.count()).toBe(1);
    expect(await brands.first().getAttribute('value')).toBe('acme');
    expect(await brands.first().isChecked()).toBe(true);
    await page.selectOption('#scope', 'BrandWrite');
    await page.fill('#key-name', 'laptop');
    await page.click('#approve');
    await page.waitForSelector('#status.done');
    expect(await page.textContent('#status')).toContain('Approved. Return to your terminal');
    await page.close();

    const result = await login.done;
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, stored: true, endpoint: s.url, name: 'laptop', scope: 'BrandWrite', channel: 'acme-kakao' });
    const stored = JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')) as { token: string };
    expect(stored.token).toMatch(/^bw_/);
    expect(statSync(join(config, 'config.json')).mode & 0o777).toBe(0o600);

    const whoami = await s.run(['whoami', '--json'], { config, env: { BRANDWIRE_ENDPOINT: undefined } });
    expect(whoami.code).toBe(0);
    expect(whoami.json()).toMatchObject({ ok: true, name: 'laptop', scope: 'BrandWrite', endpoint: s.url, channel: 'acme-kakao' });
    const send = await s.run(['rooms', '--channel', 'acme-kakao', '--json'], { config });
    expect(send.code).toBe(0);
  });

  it('fails login with ACCESS_DENIED (exit 1) when the code is denied in the page, storing nothing', async () => {
    const config = s.configDir('denied');
    const login = await startLogin(s, config);
    const page = await browser.newPage();
    await unlock(page, login.url, TEST_TOKENS.admin);
    await page.waitForSelector('#grant', { state: 'visible' });
    await page.click('#deny');
    await page.waitForSelector('#status.done');
    expect(await page.textContent('#status')).toContain('Denied');
    await page.close();
    const result = await login.done;
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({ ok: false, error: 'the pairing was denied on the pairing page; no key was stored', code: 'ACCESS_DENIED' });
    expect(() => statSync(join(config, 'config.json'))).toThrow();
  });

  it('opens the browser at the pairing page without --console', async () => {
    // xdg-open (inside the `open` package) hands the URL to $BROWSER when there is no desktop: a script records it
    const browserLog = join(s.dir, 'browser.log');
    const fakeBrowser = join(s.dir, 'browser.sh');
    writeFileSync(fakeBrowser, `#!/bin/sh\necho "$1" >> ${browserLog}\n`);
    chmodSync(fakeBrowser, 0o755);
    const login = await startLogin(s, s.configDir('opened'), ['--open'], { BROWSER: fakeBrowser, DISPLAY: '' });
    const started = Date.now();
    while (!existsSync(browserLog) && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 50));
    expect(readFileSync(browserLog, 'utf8')).toBe(`${login.url}\n`);
    const approve = await s.service.call('POST', '/api/auth/device/approve', { user_code: login.code, scope: 'BrandRead', brands: ['acme'] }, TEST_TOKENS.admin);
    expect(approve.status).toBe(200);
    const result = await login.done;
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, stored: true, scope: 'BrandRead', name: 'brandwire-cli' });
  });

  it('lets only an Admin key approve, and says so in the page', async () => {
    const page = await browser.newPage();
    await unlock(page, `${s.url}/pair?code=BCDF-GHJK`, TEST_TOKENS.writer);
    await page.waitForSelector('#status.error');
    expect(await page.textContent('#status')).toBe('This key has scope BrandWrite; approving needs an Admin key.');
    expect(await page.isVisible('#grant')).toBe(false);
    await page.fill('#admin-key', 'bw_not_a_key');
    await page.click('#continue');
    await page.locator('#status', { hasText: 'The key was refused' }).waitFor();
    expect(await page.textContent('#status')).toBe('The key was refused: unknown key');
    await page.close();
  });

  it('shows the service refusal of an unknown code in the page', async () => {
    const page = await browser.newPage();
    await unlock(page, `${s.url}/pair?code=BCDF-GHJK`, TEST_TOKENS.admin);
    await page.waitForSelector('#grant', { state: 'visible' });
    await page.click('#approve');
    await page.waitForSelector('#status.error');
    expect(await page.textContent('#status')).toContain('no pairing is waiting for the code "BCDF-GHJK"');
    await page.close();
  });
});
