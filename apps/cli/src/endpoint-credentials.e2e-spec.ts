import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './test-support/cli';

const NETWORK_HINT = 'check --endpoint (or BRANDWIRE_ENDPOINT): `brandwire env` shows the one in use';

/** A service stand-in: a GET gets a proxy's 502 page, and every change (POST) is read and never answered; `asked` counts the requests. */
function startStandIn(): Promise<{ server: Server; port: number; asked: () => number }> {
  let asked = 0;
  const server = createServer((request, response) => {
    asked += 1;
    if (request.method === 'POST') return void request.resume();
    response.writeHead(502, { 'content-type': 'text/html' });
    response.end('<html>Bad Gateway</html>');
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ server, port: (server.address() as AddressInfo).port, asked: () => asked })));
}

describe("an endpoint URL's credentials, query and fragment never show in messages", () => {
  let dir: string;
  let standIn: Server;
  let port: number;
  let asked: () => number;
  const run = (args: string[], endpoint: string, token = 'bw_some_key', extra: Record<string, string> = {}) =>
    runCli([...args, '--json'], { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'config'), BRANDWIRE_ENDPOINT: endpoint, BRANDWIRE_TOKEN: token, ...extra } });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bw-endpoint-secrets-'));
    ({ server: standIn, port, asked } = await startStandIn());
  });
  afterAll(async () => {
    standIn.closeAllConnections();
    await new Promise<void>((done) => standIn.close(() => done()));
    rmSync(dir, { recursive: true, force: true });
  });

  const ENV_HINT = 'set BRANDWIRE_ENDPOINT to the service URL, or unset it to use the stored endpoint';

  it('refuses an endpoint with a user name or password in BRANDWIRE_ENDPOINT (CONFIG), sending nothing and never repeating the password', async () => {
    const before = asked();
    const result = await run(['whoami'], `http://u:EPSECRETPW@127.0.0.1:${port}/bw`);
    expect({ code: result.code, out: result.json() }).toEqual({
      code: 1,
      out: {
        ok: false,
        error: `BRANDWIRE_ENDPOINT must not carry a user name or password (the key goes in the Authorization header): give http://127.0.0.1:${port}/bw`,
        code: 'CONFIG',
        hint: ENV_HINT,
      },
    });
    const forPeople = await runCli(['whoami'], { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'config'), BRANDWIRE_ENDPOINT: `http://someone@127.0.0.1:${port}`, BRANDWIRE_TOKEN: 'bw_some_key' } });
    expect({ code: forPeople.code, stdout: forPeople.stdout, stderr: forPeople.stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr: `Error: BRANDWIRE_ENDPOINT must not carry a user name or password (the key goes in the Authorization header): give http://127.0.0.1:${port} (CONFIG)\nHint: ${ENV_HINT}\n`,
    });
    expect(`${result.stdout}${result.stderr}${forPeople.stderr}`).not.toMatch(/EPSECRETPW|someone/);
    expect(asked()).toBe(before);
  });

  it('refuses a stored endpoint with a password (CONFIG naming the file), and one given with --endpoint (USAGE)', async () => {
    const configDir = join(dir, 'stored-userinfo');
    mkdirSync(configDir, { recursive: true });
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ endpoint: `https://u:EPSECRETPW@127.0.0.1:${port}`, token: 'bw_some_key' }));
    const stored = await runCli(['whoami', '--json'], { env: { BRANDWIRE_CONFIG_DIR: configDir } });
    expect({ code: stored.code, out: stored.json() }).toEqual({
      code: 1,
      out: {
        ok: false,
        error: `the endpoint in ${join(configDir, 'config.json')} must not carry a user name or password (the key goes in the Authorization header): give https://127.0.0.1:${port}`,
        code: 'CONFIG',
        hint: 'pass --endpoint <url> (`setup` and `login` store it), or correct `endpoint` in that file',
      },
    });
    const flag = await runCli(['setup', 'bw_some_key', '--endpoint', `http://u:EPSECRETPW@127.0.0.1:${port}/bw`, '--dry-run', '--json'], { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'config') } });
    expect({ code: flag.code, out: flag.json() }).toEqual({
      code: 2,
      out: { ok: false, error: `--endpoint must not carry a user name or password (the key goes in the Authorization header): give http://127.0.0.1:${port}/bw`, code: 'USAGE' },
    });
    expect(`${stored.stdout}${stored.stderr}${flag.stdout}${flag.stderr}`).not.toContain('EPSECRETPW');
  });

  it.each([
    ['not http(s)', 'ftp://u:EPSECRETPW@files.test/x?k=1', 'BRANDWIRE_ENDPOINT must be an http or https URL, got "ftp://files.test/x"'],
    ['without a scheme (read as the scheme "u:")', 'u:EPSECRETPW@127.0.0.1:8080', 'BRANDWIRE_ENDPOINT must be an http or https URL, got "u:…"'],
    ['not a URL', 'http://u:EPSECRETPW@', 'BRANDWIRE_ENDPOINT must be a URL such as http://127.0.0.1:8080, got "http://"'],
  ])('refuses an endpoint %s without repeating its password', async (_, endpoint, error) => {
    const result = await run(['whoami'], endpoint);
    expect({ code: result.code, out: result.json() }).toEqual({ code: 1, out: { ok: false, error, code: 'CONFIG', hint: ENV_HINT } });
    expect(`${result.stdout}${result.stderr}`).not.toContain('EPSECRETPW');
  });

  it('env shows the endpoint in use without its user name, password, query or fragment', async () => {
    const endpoint = 'http://u:EPSECRETPW@127.0.0.1:9/bw?tok=EPQSECRET#EPFRAGMENT';
    const result = await run(['env'], endpoint);
    expect({ code: result.code, endpoint: result.json<{ endpoint: string }>().endpoint }).toEqual({ code: 0, endpoint: 'http://127.0.0.1:9/bw' });
    const forPeople = await runCli(['env'], { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'config'), BRANDWIRE_ENDPOINT: endpoint } });
    expect(forPeople.stdout).toMatch(/^endpoint: +http:\/\/127\.0\.0\.1:9\/bw \(from BRANDWIRE_ENDPOINT\)$/m);
    expect(`${result.stdout}${result.stderr}${forPeople.stdout}${forPeople.stderr}`).not.toMatch(/EPSECRETPW|EPQSECRET|EPFRAGMENT/);
  });

  it('NETWORK names the unreachable endpoint without its query and fragment', async () => {
    const result = await run(['whoami'], 'http://127.0.0.1:9/x?tok=EPQSECRET#EPFRAGMENT');
    expect({ code: result.code, out: result.json() }).toEqual({
      code: 1,
      out: { ok: false, error: 'could not reach the service at http://127.0.0.1:9/x: ECONNREFUSED', code: 'NETWORK', hint: NETWORK_HINT },
    });
  });

  it('an answer without the envelope names the endpoint without its query', async () => {
    const result = await run(['whoami'], `http://127.0.0.1:${port}?tok=EPQSECRET`);
    expect({ code: result.code, out: result.json() }).toEqual({
      code: 1,
      out: {
        ok: false,
        error: `the endpoint http://127.0.0.1:${port} answered GET /api/agent/me with HTTP 502 without the error envelope: it may not be a Brandwire service (or a proxy in front of it failed)`,
        code: 'HTTP_502',
        status: 502,
        hint: NETWORK_HINT,
      },
    });
  });

  it('a change left without an answer (TIMEOUT) names the endpoint without its query', async () => {
    const result = await run(['block', '--channel', 'acme-kakao', '--to', 'alice'], `http://127.0.0.1:${port}?tok=EPQSECRET`, 'bw_some_key', { BRANDWIRE_TIMEOUT_MS: '300' });
    expect({ code: result.code, out: result.json() }).toEqual({
      code: 1,
      out: {
        ok: false,
        error: `no answer from the service at http://127.0.0.1:${port} within 0.3 s: POST /api/agent/block may have been carried out`,
        code: 'TIMEOUT',
        hint: 'check whether it took effect before doing it again',
      },
    });
  });
});
