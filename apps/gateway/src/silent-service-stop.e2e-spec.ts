import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnGateway, until, waitForState } from './test-support/gateway-process';

/** A real gateway process against a stand-in service: more than Jest's 5 s. */
const PROCESS_TEST_MS = 30_000;
/** What `brandwire gateway stop` waits after SIGTERM before it kills the gateway (DEFAULT_STOP_GRACE_SECONDS). */
const STOP_GRACE_MS = 10_000;
const CHANNEL = 'acme-kakao';
const ME = { ok: true, name: 'relay', scope: 'BrandRead', brands: [{ id: 'acme', channels: [{ key: CHANNEL, name: 'Acme', type: 'kakao', plan: { consultations: 100, remaining: 100 } }] }] };
const CUSTOMER_MESSAGE = { kind: 'message', brandKey: CHANNEL, userKey: 'kim', seq: 1, timestampUnixMs: Date.now() };

type Route = 'me' | 'signal cursor' | 'signal stream' | 'room messages';

function routeOf(request: IncomingMessage): Route | undefined {
  const path = new URL(request.url ?? '/', 'http://stand-in').pathname;
  if (path === '/api/agent/me') return 'me';
  if (path === '/api/agent/signals') return 'signal cursor';
  if (path === '/api/agent/signals/stream') return 'signal stream';
  if (path === `/api/agent/rooms/${CUSTOMER_MESSAGE.userKey}/messages`) return 'room messages';
  return undefined;
}

/**
 * A Brandwire service stand-in that answers the gateway's reads as the service does (its channel, the signal cursor,
 * a stream with one customer message) except `silentOn`, which it reads and never answers.
 */
async function startStandIn(silentOn: Route): Promise<{ url: string; asked: Route[]; close: () => Promise<void> }> {
  const asked: Route[] = [];
  const server: Server = createServer((request, response) => {
    request.resume();
    const route = routeOf(request);
    if (route !== undefined) asked.push(route);
    if (route === silentOn) return;
    const json = (status: number, body: unknown): void => void response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    switch (route) {
      case 'me':
        return json(200, ME);
      case 'signal cursor':
        return json(200, { brand: CHANNEL, signals: [], next: '0.0' });
      case 'signal stream':
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        return void response.write(`id: 1.0\nevent: message\ndata: ${JSON.stringify(CUSTOMER_MESSAGE)}\n\n`);
      case 'room messages':
        return json(200, { brand: CHANNEL, userKey: 'kim', messages: [{ seq: 1, sessionId: 's1', kind: 'message', text: 'hello', timestampUnixMs: CUSTOMER_MESSAGE.timestampUnixMs }] });
      case undefined:
        return json(404, { ok: false, code: 'NO_ROUTE', message: 'no such route' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** The relay's cursors kept beside the state file (none when it never started a pair). */
function cursorsIn(folder: string): Record<string, string> {
  const file = join(folder, 'relay-cursors.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
}

describe('stopping a gateway while the service leaves its call unanswered', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gateway-silent-service-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** What to relay besides the endpoint and key: the CRM (never reached), or AI replies (the model never asked). */
  const CRM = { crm: { url: 'http://127.0.0.1:9/hook' } };
  const AI = { ai: { reply: 'auto', provider: 'ollama', model: 'llama3.2', url: 'http://127.0.0.1:9' } };

  it.each<[string, Route, object]>([
    ['the channel list (GET /api/agent/me)', 'me', CRM],
    ['the signal cursor (GET /api/agent/signals)', 'signal cursor', CRM],
    ["a customer message's room read for the CRM", 'room messages', CRM],
    ["a customer message's room read for the AI", 'room messages', AI],
  ])(
    'exits at once on SIGTERM while %s goes unanswered, logging no error and keeping its place before the message',
    async (what, silentOn, relayed) => {
      const service = await startStandIn(silentOn);
      const folder = join(dir, what.replace(/\W+/g, '-'));
      const stateFile = join(folder, 'gateway.json');
      const relay = { endpoint: service.url, token: 'bw_relay_key', ...relayed };
      const gateway = spawnGateway(['--graph', join(folder, 'graph.kuzu'), '--port', '0', '--state', stateFile], { BRANDWIRE_GATEWAY_RELAY: JSON.stringify(relay) });
      try {
        await waitForState(gateway, stateFile);
        await until(`the gateway to ask for the ${silentOn}`, () => service.asked.includes(silentOn), gateway.stdout);
        const loggedBefore = gateway.stdout().length;

        const stopAsked = Date.now();
        gateway.child.kill('SIGTERM');
        let grace: NodeJS.Timeout | undefined;
        const exited = await Promise.race([gateway.exited, new Promise<string>((resolve) => (grace = setTimeout(() => resolve('still running'), STOP_GRACE_MS)))]);
        clearTimeout(grace);
        const loggedAfter = gateway.stdout().slice(loggedBefore).split('\n').filter((line) => line !== '');
        expect({ exited, loggedAfter }).toEqual({ exited: 0, loggedAfter: [expect.stringMatching(/gateway stopped \(SIGTERM\)$/)] });
        expect(Date.now() - stopAsked).toBeLessThan(2_000);
        // the message whose room was being read is not passed over: the relay's place stays before it
        expect(Object.values(cursorsIn(folder))).not.toContain('1.0');
      } finally {
        gateway.child.kill('SIGKILL');
        await gateway.exited;
        await service.close();
      }
    },
    PROCESS_TEST_MS,
  );
});
