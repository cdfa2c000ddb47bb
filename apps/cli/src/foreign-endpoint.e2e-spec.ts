import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startJsonEcho } from '@brandwire/client/testing';
import { runCli } from './test-support/cli';

describe('an endpoint that answers JSON but is not Brandwire', () => {
  let echo: Awaited<ReturnType<typeof startJsonEcho>>;
  let url: string;
  let dir: string;
  let received: string[];
  const run = (args: string[]) => runCli(args, { env: { BRANDWIRE_CONFIG_DIR: join(dir, 'config'), BRANDWIRE_ENDPOINT: url, BRANDWIRE_TOKEN: 'bw_some_key' } });
  const notBrandwire = (request: string, lacking: string) => `the endpoint ${url} did not answer as a Brandwire service: ${request} answered 200 ${lacking}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bw-echo-'));
    echo = await startJsonEcho();
    ({ url, received } = echo);
  });
  afterAll(async () => {
    await echo.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    received.length = 0;
  });

  it('never reports a send as done: BAD_RESPONSE, exit 1, naming what the answer lacked', async () => {
    const json = await run(['send', '--channel', 'acme-kakao', '--to', 'alice', '--text', 'x', '--json']);
    expect({ code: json.code, out: json.json() }).toEqual({
      code: 1,
      out: { ok: false, code: 'BAD_RESPONSE', status: 200, error: notBrandwire('POST /api/agent/send', 'without code (a string)'), hint: 'check --endpoint (or BRANDWIRE_ENDPOINT): `brandwire env` shows the one in use' },
    });
    expect(received).toEqual(['POST /api/agent/send']);
    const text = await run(['send', '--channel', 'acme-kakao', '--to', 'alice', '--text', 'x']);
    expect({ code: text.code, stdout: text.stdout }).toEqual({ code: 1, stdout: '' });
    expect(text.stderr).toBe(
      `Error: ${notBrandwire('POST /api/agent/send', 'without code (a string)')} (BAD_RESPONSE)\nHint: check --endpoint (or BRANDWIRE_ENDPOINT): \`brandwire env\` shows the one in use\n`,
    );
  });

  it.each([
    [['whoami'], 'GET /api/agent/me', 'without name (a string)'],
    [['rooms', '--channel', 'acme-kakao'], 'GET /api/agent/rooms', 'without brand (a string)'],
    [['rooms', '--channel', 'acme-kakao', '--to', 'alice'], 'GET /api/agent/rooms/alice/messages', 'without brand (a string)'],
    [['history'], 'GET /api/agent/conversations', 'with an object instead of an array'],
    [['history', '--channel', 'acme-kakao', '--conv', '17'], 'GET /api/agent/conversation', 'without brand (a string)'],
    [['setup', 'bw_some_key', '--endpoint', 'URL', '--dry-run'], 'GET /api/agent/me', 'without name (a string)'],
  ])('%j fails with BAD_RESPONSE instead of a JavaScript error', async (args, request, lacking) => {
    const result = await run([...args.map((a) => (a === 'URL' ? url : a)), '--json']);
    expect({ code: result.code, out: result.json() }).toEqual({ code: 1, out: { ok: false, code: 'BAD_RESPONSE', status: 200, error: notBrandwire(request, lacking), hint: 'check --endpoint (or BRANDWIRE_ENDPOINT): `brandwire env` shows the one in use' } });
  });
});
