import { mkdtempSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './test-support/cli';

const NETWORK_HINT = 'check --endpoint (or BRANDWIRE_ENDPOINT): `brandwire env` shows the one in use';

/**
 * A service stand-in: under /refusing every key gets the 401 envelope, elsewhere a GET gets a proxy's 502 page, and
 * every change (POST) is read and never answered.
 */
function startStandIn(): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    if (request.method === 'POST') return void request.resume();
    if (request.url?.startsWith('/refusing/') === true) {
      response.writeHead(401, { 'content-type': 'application/json' });
      return void response.end(JSON.stringify({ ok: false, code: 'UNAUTHORIZED', message: 'invalid or missing API key' }));
    }
    response.writeHead(502, { 'content-type': 'text/html' });
    response.end('<html>Bad Gateway</html>');
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ server, port: (server.address() as AddressInfo).port })));
}

describe("an endpoint URL's credentials, query and fragment never show in messages", () => {
  let dir: string;
  let standIn: Server;
  let port: number;
  const run = (args: string[], endpoint: string, token = 'bw_some_key', extra: Record<string, string> = {}) =>
    runCli([...args, '--json'], { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'config'), BRANDWIRE_ENDPOINT: endpoint, BRANDWIRE_TOKEN: token, ...extra } });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bw-endpoint-secrets-'));
    ({ server: standIn, port } = await startStandIn());
  });
  afterAll(async () => {
    standIn.closeAllConnections();
    await new Promise<void>((done) => standIn.close(() => done()));
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['userinfo', 'http://u:EPSECRETPW@127.0.0.1:9', 'http://127.0.0.1:9'],
    ['query and fragment', 'http://127.0.0.1:9/x?tok=EPQSECRET#EPFRAGMENT', 'http://127.0.0.1:9/x'],
  ])('NETWORK names the unreachable endpoint without its %s', async (_, endpoint, shown) => {
    const result = await run(['whoami'], endpoint);
    expect({ code: result.code, out: result.json() }).toEqual({
      code: 1,
      out: { ok: false, error: `could not reach the service at ${shown}: ECONNREFUSED`, code: 'NETWORK', hint: NETWORK_HINT },
    });
  });

  it('an answer without the envelope names the endpoint without its userinfo', async () => {
    const result = await run(['whoami'], `http://u:EPSECRETPW@127.0.0.1:${port}`);
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

  it('a change left without an answer (TIMEOUT) names the endpoint without its userinfo', async () => {
    const result = await run(['block', '--channel', 'acme-kakao', '--to', 'alice'], `http://u:EPSECRETPW@127.0.0.1:${port}`, 'bw_some_key', { BRANDWIRE_TIMEOUT_MS: '300' });
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

  it('setup names the service that refused the key without the userinfo of its URL', async () => {
    const endpoint = `http://u:EPSECRETPW@127.0.0.1:${port}/refusing`;
    const result = await runCli(['setup', 'bw_some_key', '--endpoint', endpoint, '--dry-run', '--json'], { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'config') } });
    expect({ code: result.code, out: result.json() }).toEqual({
      code: 4,
      out: {
        ok: false,
        error: 'invalid or missing API key',
        code: 'UNAUTHORIZED',
        status: 401,
        hint: `http://127.0.0.1:${port}/refusing does not know this key: check that it was copied whole, and that this is the service that issued it (--endpoint)`,
      },
    });
  });
});
