import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LiveService, TEST_TOKENS } from '@brandwire/client/testing';
import { type GatewayProcess, spawnGateway, until, waitForState } from './test-support/gateway-process';

/** The service, a real gateway process and a team chat: more than Jest's 5 s. */
const PROCESS_TEST_MS = 60_000;

/** A `webhook` team chat: the lines it was posted, in order. */
async function startTeamChat(): Promise<{ url: string; lines: string[]; close: () => Promise<void> }> {
  const lines: string[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      lines.push((JSON.parse(raw) as { line: string }).line);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    lines,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

describe('the gateway whose key the service refuses', () => {
  let live: LiveService;
  let chat: Awaited<ReturnType<typeof startTeamChat>>;
  let dir: string;
  beforeAll(async () => {
    [live, chat] = await Promise.all([LiveService.start(), startTeamChat()]);
  });
  afterAll(async () => {
    await Promise.all([live.stop(), chat.close()]);
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gateway-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const newKey = async (name: string): Promise<{ id: string; token: string }> => {
    const created = await live.call<{ id: string; token: string }>('POST', '/api/agent/keys', { name, scope: 'BrandRead', brands: ['acme'] }, TEST_TOKENS.admin);
    expect(created.status).toBe(200);
    return created.body;
  };

  it(
    'says once that the key was refused and what to do, and goes on with the key `brandwire login` stores, without a restart',
    async () => {
      const configFile = join(dir, 'config.json');
      const revoked = await newKey('gateway-old');
      writeFileSync(configFile, JSON.stringify({ endpoint: live.url, token: revoked.token }), { mode: 0o600 });
      const stateFile = join(dir, 'gateway', 'gateway.json');
      const relay = { endpoint: live.url, token: revoked.token, sink: { type: 'webhook', url: chat.url }, configFile };
      const gateway: GatewayProcess = spawnGateway(['--graph', join(dir, 'graph.kuzu'), '--port', '0', '--state', stateFile], { BRANDWIRE_GATEWAY_RELAY: JSON.stringify(relay) });
      const refusals = (): string[] => gateway.stdout().split('\n').filter((line) => /refus|UNAUTHORIZED/.test(line));
      try {
        await waitForState(gateway, stateFile);
        await until('the relay of acme-kakao to follow its signals', () => gateway.stdout().includes('following the signals of acme-kakao for the team chat'), gateway.stdout);
        await live.customerWrites('kim', 'before the revocation');
        await until('the first message in the team chat', () => chat.lines.includes('[acme-kakao] kim: before the revocation'), gateway.stdout);

        expect((await live.call('DELETE', `/api/agent/keys/${revoked.id}`, undefined, TEST_TOKENS.admin)).status).toBe(200);
        await until('the refusal to be logged', () => refusals().length > 0, gateway.stdout);
        await live.customerWrites('kim', 'while the key is refused');
        // both channels' relays and the listing of channels are refused meanwhile: still the one line
        await new Promise((resolve) => setTimeout(resolve, 4_000));
        expect(refusals()).toEqual([
          expect.stringMatching(
            new RegExp(
              `^\\S+Z error: the service at ${live.url.replace(/[.]/g, '\\.')} refused the gateway's key \\(UNAUTHORIZED: it was revoked, or the service does not know it\\); nothing is relayed until it has a valid one\\. Run \`brandwire login\` \\(or \`brandwire setup <key>\`\\): the gateway reads the new key from ${configFile.replace(/[.]/g, '\\.')} by itself, without a restart$`,
            ),
          ) as unknown,
        ]);

        const stored = await newKey('gateway-new');
        writeFileSync(configFile, JSON.stringify({ endpoint: live.url, token: stored.token }), { mode: 0o600 });
        await until('the message written while refused in the team chat', () => chat.lines.includes('[acme-kakao] kim: while the key is refused'), gateway.stdout);
        await live.customerWrites('kim', 'after the login');
        await until('the message written after the login in the team chat', () => chat.lines.includes('[acme-kakao] kim: after the login'), gateway.stdout);
        expect(chat.lines.filter((line) => line.startsWith('[acme-kakao] kim:'))).toEqual([
          '[acme-kakao] kim: before the revocation',
          '[acme-kakao] kim: while the key is refused',
          '[acme-kakao] kim: after the login',
        ]);
        expect(gateway.stdout().split('\n').filter((line) => line.includes('relaying goes on'))).toEqual([
          expect.stringMatching(new RegExp(`^\\S+Z the service accepts the new key in ${configFile.replace(/[.]/g, '\\.')}: relaying goes on$`)) as unknown,
        ]);
        expect(refusals()).toHaveLength(1);
        expect(gateway.stdout()).not.toContain(revoked.token);
        expect(gateway.stdout()).not.toContain(stored.token);
      } finally {
        gateway.child.kill('SIGKILL');
        await gateway.exited;
      }
    },
    PROCESS_TEST_MS,
  );

  it(
    'does not send its service a key `brandwire login` stored for another endpoint: it says once that following it takes a restart',
    async () => {
      const configFile = join(dir, 'config.json');
      const revoked = await newKey('gateway-old');
      writeFileSync(configFile, JSON.stringify({ endpoint: live.url, token: revoked.token }), { mode: 0o600 });
      const stateFile = join(dir, 'gateway', 'gateway.json');
      const relay = { endpoint: live.url, token: revoked.token, sink: { type: 'webhook', url: chat.url }, configFile };
      const gateway: GatewayProcess = spawnGateway(['--graph', join(dir, 'graph.kuzu'), '--port', '0', '--state', stateFile], { BRANDWIRE_GATEWAY_RELAY: JSON.stringify(relay) });
      const elsewhere = (): string[] => gateway.stdout().split('\n').filter((line) => line.includes('another endpoint'));
      try {
        await waitForState(gateway, stateFile);
        await until('the relay of acme-kakao to follow its signals', () => gateway.stdout().includes('following the signals of acme-kakao for the team chat'), gateway.stdout);
        expect((await live.call('DELETE', `/api/agent/keys/${revoked.id}`, undefined, TEST_TOKENS.admin)).status).toBe(200);
        await until('the refusal to be logged', () => gateway.stdout().includes("refused the gateway's key"), gateway.stdout);

        // a key this service knows, so that it would relay again if the gateway sent it here
        const other = await newKey('other-service');
        writeFileSync(configFile, JSON.stringify({ endpoint: 'https://Other.Example.com/', token: other.token }), { mode: 0o600 });
        await until('the key for another endpoint to be told', () => elsewhere().length > 0, gateway.stdout);
        await live.customerWrites('lee', 'while the key is for another endpoint');
        // the config file is read every 2 s: still the one line, and nothing relayed with that key
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        expect(elsewhere()).toEqual([
          expect.stringMatching(
            new RegExp(
              `^\\S+Z error: the key in ${configFile.replace(/[.]/g, '\\.')} is for another endpoint \\(https://other\\.example\\.com\\) than the gateway's \\(${live.url.replace(/[.]/g, '\\.')}\\): the gateway does not send it to its own, and relays nothing meanwhile\\. Run \`brandwire gateway restart\` for the gateway to follow the new endpoint$`,
            ),
          ) as unknown,
        ]);
        expect(chat.lines.filter((line) => line.startsWith('[acme-kakao] lee:'))).toEqual([]);

        // the same endpoint written otherwise (capitals in the scheme, a trailing slash) is the gateway's
        writeFileSync(configFile, JSON.stringify({ endpoint: `${live.url.replace(/^http:/, 'HTTP:')}/`, token: other.token }), { mode: 0o600 });
        await until('the message written meanwhile in the team chat', () => chat.lines.includes('[acme-kakao] lee: while the key is for another endpoint'), gateway.stdout);
        expect(gateway.stdout()).toContain(`the service accepts the new key in ${configFile}: relaying goes on`);
        expect(elsewhere()).toHaveLength(1);
        expect(gateway.stdout()).not.toContain(revoked.token);
        expect(gateway.stdout()).not.toContain(other.token);
      } finally {
        gateway.child.kill('SIGKILL');
        await gateway.exited;
      }
    },
    PROCESS_TEST_MS,
  );
});
