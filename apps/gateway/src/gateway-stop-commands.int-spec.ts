import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type IncomingMessage, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningGateway, startGateway } from './gateway';

const SLACK_SECRET = 'slack-signing-secret-0004';
const CHANNEL = 'acme-kakao';
/** The wait for answers being made (3 s) and the telling of those still waiting (2 s), with room to spare. */
const STOP_BOUND_MS = 5_500;
const ME = { ok: true, name: 'relay', scope: 'BrandRead', brands: [{ id: 'acme', channels: [{ key: CHANNEL, name: 'Acme', type: 'kakao', plan: { consultations: 100, remaining: 100 } }] }] };

/**
 * The Brandwire service as the gateway's commands and relay read it: its channel, a signal stream with nothing in it,
 * kim's room, and rita's room read and never answered (a service call still under way when the gateway stops).
 */
async function startService(): Promise<{ url: string; asked: string[]; close: () => Promise<void> }> {
  const asked: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    req.resume();
    const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
    asked.push(path);
    const json = (body: unknown): void => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (path === '/api/agent/me') return json(ME);
    if (path === '/api/agent/signals') return json({ brand: CHANNEL, signals: [], next: '0.0' });
    if (path === '/api/agent/signals/stream') return void res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': open\n\n');
    if (path === '/api/agent/rooms/kim/messages') return json({ brand: CHANNEL, userKey: 'kim', messages: [{ seq: 1, userKey: 'kim', sessionId: 's1', kind: 'message', text: 'hello', timestampUnixMs: Date.now() }] });
    if (path === '/api/agent/rooms/rita/messages') return;
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: false, code: 'NO_ROUTE', message: 'no such route' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** Slack's response_urls: each later answer posted there. */
async function startSlackHooks(): Promise<{ origin: string; received: Array<{ call: string; body: unknown }>; close: () => Promise<void> }> {
  const received: Array<{ call: string; body: unknown }> = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      received.push({ call: `${req.method ?? ''} ${req.url ?? ''}`, body: JSON.parse(raw) as unknown });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** A port free now on 127.0.0.1 (the commands' port is set, never 0). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function until(what: string, probe: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

interface RelayingGateway {
  gateway: RunningGateway;
  service: Awaited<ReturnType<typeof startService>>;
  slack: Awaited<ReturnType<typeof startSlackHooks>>;
  state: string;
  /** asks as Slack does, on the gateway's team-chat commands port: Slack's answer */
  ask: (command: string, text: string) => Promise<unknown>;
}

/** A gateway relaying to Slack, with the team-chat commands, in `dir`. */
async function startRelayingGateway(dir: string): Promise<RelayingGateway> {
  const [service, slack, port] = await Promise.all([startService(), startSlackHooks(), freePort()]);
  const state = join(dir, 'gateway.json');
  const relay = { endpoint: service.url, token: 'bw_relay_key', sink: { type: 'slack', url: `${service.url}/hook` }, commands: { port, secret: SLACK_SECRET } };
  const gateway = await startGateway({ graph: join(dir, 'graph.kuzu'), state, port: 0, memoryLimitMb: 2048 }, { BRANDWIRE_GATEWAY_RELAY: JSON.stringify(relay) }, { slackResponseOrigin: slack.origin });
  const ask = async (command: string, text: string): Promise<unknown> => {
    const body = new URLSearchParams({ command, text, user_name: 'jun', trigger_id: command, response_url: `${slack.origin}/commands/T1/${command.slice(4)}/secret` }).toString();
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = `v0=${createHmac('sha256', SLACK_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
    const response = await fetch(`http://127.0.0.1:${port}/chat/command`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': timestamp, 'x-slack-signature': signature }, body });
    return response.json();
  };
  return { gateway, service, slack, state, ask };
}

describe('stopping the gateway while a Slack command waits on the service', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gateway-stop-commands-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("tells the asker at the response_url that the gateway stopped before the answer was ready, not that the command failed, and stops within its bound", async () => {
    const { gateway, service, slack, state, ask } = await startRelayingGateway(dir);
    let stopped = false;
    try {
      expect(await ask('/cs-memo', 'kim call back')).toEqual({ response_type: 'in_channel', text: `memo kept for kim (${CHANNEL}); /cs-who ${CHANNEL}:kim shows the memos` });
      expect(await ask('/cs-who', 'rita')).toEqual({ response_type: 'ephemeral', text: '/cs-who is under way; its answer follows here' });
      expect(service.asked).toContain('/api/agent/rooms/rita/messages');

      const asked = Date.now();
      await gateway.stop();
      stopped = true;
      expect(Date.now() - asked).toBeLessThan(STOP_BOUND_MS);
      await until('the later answer', () => slack.received.length >= 1);
      expect(slack.received).toEqual([
        { call: 'POST /commands/T1/who/secret', body: { response_type: 'ephemeral', text: 'the gateway stopped before the answer to /cs-who was ready; ask again once it is back' } },
      ]);
      expect(existsSync(state)).toBe(false);
    } finally {
      if (!stopped) await gateway.stop();
      await Promise.all([service.close(), slack.close()]);
    }
  });

  it('takes no knowledge query once the stop began: one taken then could hold the stop past its bound (the graph is closed only once it is done)', async () => {
    const { gateway, service, slack, state, ask } = await startRelayingGateway(dir);
    const { queryToken } = JSON.parse(readFileSync(state, 'utf8')) as { queryToken: string };
    const query = (): Promise<string> =>
      fetch(`http://127.0.0.1:${gateway.port}/knowledge/status`, { headers: { authorization: `Bearer ${queryToken}` } }).then(
        (response) => `HTTP ${response.status}`,
        (error: Error) => String((error.cause as NodeJS.ErrnoException | undefined)?.code ?? error.message),
      );
    let stopping: Promise<void> | undefined;
    try {
      expect(await query()).toBe('HTTP 200');
      expect(await ask('/cs-who', 'rita')).toEqual({ response_type: 'ephemeral', text: '/cs-who is under way; its answer follows here' });

      const asked = Date.now();
      stopping = gateway.stop();
      // the stop still waits for the answer to /cs-who
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await query()).toBe('ECONNREFUSED');
      await stopping;
      expect(Date.now() - asked).toBeLessThan(STOP_BOUND_MS);
    } finally {
      await (stopping ?? gateway.stop());
      await Promise.all([service.close(), slack.close()]);
    }
  });
});
