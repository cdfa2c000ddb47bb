import { mkdtempSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LiveService, TEST_TOKENS } from '@brandwire/client/testing';
import { spawnGateway, until, waitForState } from './test-support/gateway-process';

/** The service, a real gateway process and two failing targets: more than Jest's 5 s. */
const PROCESS_TEST_MS = 60_000;
/** What `brandwire gateway stop` waits after SIGTERM before it kills the gateway (DEFAULT_STOP_GRACE_SECONDS). */
const STOP_GRACE_MS = 10_000;

/** A target that is down: every post is read whole and answered `status`. */
async function startFailingTarget(status: number): Promise<{ url: string; posts: () => number; close: () => Promise<void> }> {
  let posts = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      posts += 1;
      res.writeHead(status).end('down');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    posts: () => posts,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

describe('stopping a gateway whose targets are down', () => {
  let live: LiveService;
  let chat: Awaited<ReturnType<typeof startFailingTarget>>;
  let crm: Awaited<ReturnType<typeof startFailingTarget>>;
  let dir: string;
  beforeAll(async () => {
    [live, chat, crm] = await Promise.all([LiveService.start(), startFailingTarget(503), startFailingTarget(500)]);
    dir = mkdtempSync(join(tmpdir(), 'gateway-stop-'));
  });
  afterAll(async () => {
    await Promise.all([live.stop(), chat.close(), crm.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'exits at once on SIGTERM while the team chat and the CRM relays wait to try a delivery again',
    async () => {
      const stateFile = join(dir, 'gateway', 'gateway.json');
      const relay = { endpoint: live.url, token: TEST_TOKENS.reader, sink: { type: 'webhook', url: chat.url }, crm: { url: crm.url } };
      const gateway = spawnGateway(['--graph', join(dir, 'graph.kuzu'), '--port', '0', '--state', stateFile], { BRANDWIRE_GATEWAY_RELAY: JSON.stringify(relay) });
      try {
        await waitForState(gateway, stateFile);
        await until('both relays to follow the signals', () => /for the team chat after[\s\S]*for the CRM after|for the CRM after[\s\S]*for the team chat after/.test(gateway.stdout()), gateway.stdout);
        await live.customerWrites('kim', 'while the team chat and the CRM are down');
        const retrying = (target: string, status: number): RegExp => new RegExp(`relay of \\S+ to the ${target} failed \\(HTTP ${status}\\); trying again in 2 s`);
        await until('both targets to have refused the message twice', () => retrying('team chat', 503).test(gateway.stdout()) && retrying('CRM', 500).test(gateway.stdout()), gateway.stdout);

        const stopAsked = Date.now();
        gateway.child.kill('SIGTERM');
        const exited = await Promise.race([gateway.exited, new Promise<string>((resolve) => setTimeout(() => resolve('still running'), STOP_GRACE_MS))]);
        expect({ exited, gateway: gateway.stdout().split('\n').slice(-2)[0] }).toEqual({ exited: 0, gateway: expect.stringMatching(/gateway stopped \(SIGTERM\)$/) as unknown });
        expect(Date.now() - stopAsked).toBeLessThan(2_000);
      } finally {
        gateway.child.kill('SIGKILL');
        await gateway.exited;
      }
    },
    PROCESS_TEST_MS,
  );
});
