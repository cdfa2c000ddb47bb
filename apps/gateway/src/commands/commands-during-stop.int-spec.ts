import { createHmac } from 'node:crypto';
import { Agent, request } from 'node:http';
import { type CommandServer, startCommandServer } from './command-server';
import type { CommandRequest } from './command-request';
import type { CommandSettings } from './command-settings';
import type { CommandOutcome, TeamCommands } from './team-commands';

const SLACK_SECRET = 'slack-signing-secret-0005';
const WEBHOOK_TOKEN = 'webhook-commands-token-05';
/** A stop with a command under way: more than Jest's 5 s. */
const STOP_TEST_MS = 30_000;
const STOPPING = 'the gateway is stopping; ask again once it is back';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A command request as the team chat signs it (Slack) or sends it with its token (a webhook team chat). */
function commandRequest(type: 'slack' | 'webhook', command: string, text: string): { headers: Record<string, string>; body: string } {
  if (type === 'webhook') return { headers: { authorization: `Bearer ${WEBHOOK_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ text: `${command} ${text}`, user: 'jun' }) };
  const body = new URLSearchParams({ command, text, user_name: 'jun', trigger_id: String(Math.random()) }).toString();
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac('sha256', SLACK_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return { headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': timestamp, 'x-slack-signature': signature }, body };
}

interface Answer {
  status: number;
  connection: string | undefined;
  body: unknown;
}

/**
 * Posts a command on a kept-alive connection of `agent` (as a tunnel or a proxy in front of the gateway does); the
 * body's second half is sent once `rest` settles. Settles with the answer, or with the error code of a request that
 * found no gateway.
 */
function ask(url: string, agent: Agent, { headers, body }: { headers: Record<string, string>; body: string }, rest: Promise<unknown> = Promise.resolve()): Promise<Answer | string> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, connection: 'keep-alive', 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      let raw = '';
      res.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: JSON.parse(raw) as unknown }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    const half = Math.floor(body.length / 2);
    req.write(body.slice(0, half));
    void rest.then(() => req.end(body.slice(half)));
  });
}

/**
 * The commands as the test runs them, each one run noted: `/cs-memo` takes 1 s and `/cs-who` 2 s (the stop waits for
 * them; both within what Slack waits), `/cs-close` is done at once.
 */
function commandsNoting(ran: string[]): TeamCommands {
  const outcomes: Record<CommandRequest['command'], () => Promise<CommandOutcome>> = {
    '/cs-memo': () => sleep(1_000).then(() => ({ outcome: 'done', text: 'memo kept for kim' })),
    '/cs-who': () => sleep(2_000).then(() => ({ outcome: 'done', text: 'kim: consultation in progress', private: true })),
    '/cs-close': () => Promise.resolve({ outcome: 'done', text: 'ended the consultation with kim' }),
  };
  return { run: (command: CommandRequest) => (ran.push(`${command.command} ${command.args}`), outcomes[command.command]()) } as unknown as TeamCommands;
}

function settingsOf(type: 'slack' | 'webhook'): CommandSettings {
  return type === 'slack' ? { type, port: 0, secret: SLACK_SECRET } : { type, port: 0, secret: WEBHOOK_TOKEN };
}

describe('team-chat commands while the gateway stops', () => {
  let server: CommandServer;
  let agent: Agent;
  let closing: Promise<void> | undefined;
  beforeEach(() => {
    agent = new Agent({ keepAlive: true });
    closing = undefined;
  });
  afterEach(async () => {
    await (closing ?? server.close());
    agent.destroy();
  });

  it.each([
    ['slack' as const, { status: 200, connection: 'close', body: { response_type: 'ephemeral', text: STOPPING } }],
    ['webhook' as const, { status: 502, connection: 'close', body: { ok: false, code: 'UPSTREAM_UNAVAILABLE', message: STOPPING } }],
  ])(
    '%s: a command still arriving when the stop began is answered at once that the gateway is stopping, and is not run',
    async (type, expected) => {
      const ran: string[] = [];
      server = await startCommandServer(settingsOf(type), commandsNoting(ran), () => undefined);
      const memo = ask(server.url, agent, commandRequest(type, '/cs-memo', 'acme-kakao:kim call back'));
      let stopBegan: () => void = () => undefined;
      const close = ask(server.url, agent, commandRequest(type, '/cs-close', 'acme-kakao:kim'), new Promise<void>((resolve) => (stopBegan = resolve)));
      await sleep(200);

      const asked = Date.now();
      closing = server.close();
      stopBegan();
      expect(await close).toEqual(expected);
      expect(Date.now() - asked).toBeLessThan(1_000);
      expect(ran).toEqual(['/cs-memo acme-kakao:kim call back']);
      // the command under way when the stop began is still answered
      expect(await memo).toMatchObject({ status: 200, connection: 'close' });
    },
    STOP_TEST_MS,
  );

  it(
    'an answer given during the stop closes its connection: a command the team chat sends after it finds the gateway gone, and is not run',
    async () => {
      const ran: string[] = [];
      server = await startCommandServer(settingsOf('slack'), commandsNoting(ran), () => undefined);
      const memo = ask(server.url, agent, commandRequest('slack', '/cs-memo', 'acme-kakao:kim call back'));
      // holds the stop a second longer than the memo
      const who = ask(server.url, agent, commandRequest('slack', '/cs-who', 'acme-kakao:kim'));
      await sleep(200);

      closing = server.close();
      const memoAnswer = await memo;
      expect({ memo: memoAnswer, next: await ask(server.url, agent, commandRequest('slack', '/cs-close', 'acme-kakao:kim')) }).toEqual({
        memo: { status: 200, connection: 'close', body: { response_type: 'in_channel', text: 'memo kept for kim' } },
        next: 'ECONNREFUSED',
      });
      expect(await who).toEqual({ status: 200, connection: 'close', body: { response_type: 'ephemeral', text: 'kim: consultation in progress' } });
      await closing;
      expect(ran).toEqual(['/cs-memo acme-kakao:kim call back', '/cs-who acme-kakao:kim']);
    },
    STOP_TEST_MS,
  );
});
