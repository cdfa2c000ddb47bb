import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startCommandServer } from './command-server';
import type { CommandRequest } from './command-request';
import type { CommandOutcome, TeamCommands } from './team-commands';

/**
 * How long a stop may take with answers pending: the wait for answers being made (3 s), then telling each asker
 * still waiting (2 s), well within the 10 s `brandwire gateway stop` gives before SIGKILL.
 */
const STOP_BOUND_MS = 5_500;
/** Three later answers and a stop: more than Jest's 5 s. */
const STOP_TEST_MS = 30_000;
const SLACK_SECRET = 'slack-signing-secret-0003';

/** A team chat's side of later answers (Slack's response_urls, Discord's webhooks): each call and its body. */
interface Receiver {
  origin: string;
  received: Array<{ call: string; body: unknown }>;
  close: () => Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const received: Receiver['received'] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      received.push({ call: `${req.method ?? ''} ${req.url ?? ''}`, body: raw === '' ? undefined : (JSON.parse(raw) as unknown) });
      if (req.method === 'DELETE') return res.writeHead(204).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

async function until(what: string, probe: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The commands as the test runs them: `/cs-memo` is answered 3 s after it is asked (before the stop), `/cs-close`
 * once `finishClose` is called (during the stop's wait), `/cs-who` never (the AI drafting on when the gateway stops).
 */
function slowCommands(): { commands: TeamCommands; finishClose: () => void } {
  let finishClose: () => void = () => undefined;
  const closed = new Promise<CommandOutcome>((resolve) => (finishClose = () => resolve({ outcome: 'done', text: 'ended the consultation with rita' })));
  const outcomes: Record<CommandRequest['command'], () => Promise<CommandOutcome>> = {
    '/cs-memo': () => sleep(3_000).then(() => ({ outcome: 'done', text: 'memo kept for rita' })),
    '/cs-close': () => closed,
    '/cs-who': () => new Promise<CommandOutcome>(() => undefined),
  };
  return { commands: { run: (request: CommandRequest) => outcomes[request.command]() } as unknown as TeamCommands, finishClose };
}

/** What the asker is told when the gateway stopped before the answer was ready. */
const stoppedBefore = (command: string): string => `the gateway stopped before the answer to ${command} was ready; ask again once it is back${command === '/cs-who' ? '' : ' (/cs-who shows whether it was done)'}`;

/** Stops the server (as the gateway's stop does) after `finishClose` is called 1 s into it; how long the stop took. */
async function stopWhileClosing(close: () => Promise<void>, finishClose: () => void): Promise<number> {
  const asked = Date.now();
  const finishing = setTimeout(finishClose, 1_000);
  try {
    await close();
    return Date.now() - asked;
  } finally {
    clearTimeout(finishing);
  }
}

describe('a gateway stopped while later answers are pending', () => {
  it(
    "Slack: waits for an answer being made, tells each asker still waiting at the request's response_url that the gateway stopped, and leaves an answer given before alone",
    async () => {
      const slack = await startReceiver();
      const lines: string[] = [];
      const { commands, finishClose } = slowCommands();
      const server = await startCommandServer({ type: 'slack', port: 0, secret: SLACK_SECRET }, commands, (line) => lines.push(line), { slackResponseOrigin: slack.origin });
      let closed = false;
      const ask = async (command: string): Promise<unknown> => {
        const body = new URLSearchParams({ command, text: 'acme-kakao:rita', user_name: 'jun', trigger_id: command, response_url: `${slack.origin}/commands/T1/${command.slice(4)}/secret` }).toString();
        const timestamp = String(Math.floor(Date.now() / 1000));
        const signature = `v0=${createHmac('sha256', SLACK_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
        const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': timestamp, 'x-slack-signature': signature }, body });
        return response.json();
      };
      try {
        expect(await Promise.all(['/cs-memo', '/cs-close', '/cs-who'].map(ask))).toEqual(
          ['/cs-memo', '/cs-close', '/cs-who'].map((command) => ({ response_type: 'ephemeral', text: `${command} is under way; its answer follows here` })),
        );
        await until('the answer to /cs-memo', () => slack.received.length >= 1);

        const tookMs = await stopWhileClosing(server.close, finishClose);
        closed = true;
        expect(tookMs).toBeLessThan(STOP_BOUND_MS);
        expect(slack.received).toEqual([
          { call: 'POST /commands/T1/memo/secret', body: { response_type: 'in_channel', text: 'memo kept for rita' } },
          { call: 'POST /commands/T1/close/secret', body: { response_type: 'in_channel', text: 'ended the consultation with rita' } },
          { call: 'POST /commands/T1/who/secret', body: { response_type: 'ephemeral', text: stoppedBefore('/cs-who') } },
        ]);
        expect(lines).toEqual(['the answer to /cs-who was not ready when the gateway stopped; the asker was told to ask again']);
      } finally {
        if (!closed) await server.close();
        await slack.close();
      }
    },
    STOP_TEST_MS,
  );

  it(
    "Discord: waits for an answer being made, tells each asker still waiting through the interaction's follow-up that the gateway stopped, and leaves an answer given before alone",
    async () => {
      const discord = await startReceiver();
      const { publicKey, privateKey } = generateKeyPairSync('ed25519');
      const publicKeyHex = Buffer.from(String(publicKey.export({ format: 'jwk' }).x), 'base64url').toString('hex');
      const lines: string[] = [];
      const { commands, finishClose } = slowCommands();
      const server = await startCommandServer({ type: 'discord', port: 0, secret: publicKeyHex }, commands, (line) => lines.push(line), { discordApi: `${discord.origin}/api/v10` });
      let closed = false;
      const ask = async (name: string): Promise<unknown> => {
        const body = JSON.stringify({
          id: name,
          application_id: '1234',
          token: `${name.slice(3)}-token`,
          version: 1,
          type: 2,
          data: { id: '9', name, type: 1, options: [{ name: 'customer', type: 3, value: 'rita' }] },
          member: { user: { id: '7', username: 'jun' } },
        });
        const timestamp = String(Math.floor(Date.now() / 1000));
        const signature = sign(null, Buffer.from(timestamp + body), privateKey).toString('hex');
        const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp }, body });
        return response.json();
      };
      try {
        expect(await Promise.all(['cs-memo', 'cs-close', 'cs-who'].map(ask))).toEqual([{ type: 5 }, { type: 5 }, { type: 5, data: { flags: 64 } }]);
        await until('the answer to /cs-memo', () => discord.received.length >= 1);

        const tookMs = await stopWhileClosing(server.close, finishClose);
        closed = true;
        expect(tookMs).toBeLessThan(STOP_BOUND_MS);
        const message = (content: string): object => ({ content, allowed_mentions: { parse: [] } });
        expect(discord.received).toEqual([
          { call: 'PATCH /api/v10/webhooks/1234/memo-token/messages/@original', body: message('memo kept for rita') },
          { call: 'PATCH /api/v10/webhooks/1234/close-token/messages/@original', body: message('ended the consultation with rita') },
          // /cs-who was deferred for the asker only: its "thinking…" becomes the notice
          { call: 'PATCH /api/v10/webhooks/1234/who-token/messages/@original', body: message(stoppedBefore('/cs-who')) },
        ]);
        expect(lines).toEqual(['the answer to /cs-who was not ready when the gateway stopped; the asker was told to ask again']);
      } finally {
        if (!closed) await server.close();
        await discord.close();
      }
    },
    STOP_TEST_MS,
  );

  it(
    'Discord: a command deferred in the channel is answered for the asker only through a follow-up, and its "thinking…" removed',
    async () => {
      const discord = await startReceiver();
      const { publicKey, privateKey } = generateKeyPairSync('ed25519');
      const publicKeyHex = Buffer.from(String(publicKey.export({ format: 'jwk' }).x), 'base64url').toString('hex');
      const never = { run: () => new Promise<CommandOutcome>(() => undefined) } as unknown as TeamCommands;
      const lines: string[] = [];
      const server = await startCommandServer({ type: 'discord', port: 0, secret: publicKeyHex }, never, (line) => lines.push(line), { discordApi: `${discord.origin}/api/v10` });
      let closed = false;
      try {
        const body = JSON.stringify({ id: '1', application_id: '1234', token: 'close-token', version: 1, type: 2, data: { id: '9', name: 'cs-close', type: 1, options: [{ name: 'customer', type: 3, value: 'rita' }] } });
        const timestamp = String(Math.floor(Date.now() / 1000));
        const signature = sign(null, Buffer.from(timestamp + body), privateKey).toString('hex');
        const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp }, body });
        expect(await response.json()).toEqual({ type: 5 });

        const asked = Date.now();
        await server.close();
        closed = true;
        expect(Date.now() - asked).toBeLessThan(STOP_BOUND_MS);
        expect(discord.received).toEqual([
          { call: 'POST /api/v10/webhooks/1234/close-token', body: { content: stoppedBefore('/cs-close').replace(/[()]/g, '\\$&'), allowed_mentions: { parse: [] }, flags: 64 } },
          { call: 'DELETE /api/v10/webhooks/1234/close-token/messages/@original', body: undefined },
        ]);
      } finally {
        if (!closed) await server.close();
        await discord.close();
      }
    },
    STOP_TEST_MS,
  );

  it('stops at once when no answer is pending', async () => {
    const slack = await startReceiver();
    const quick = { run: () => Promise.resolve<CommandOutcome>({ outcome: 'done', text: 'memo kept for rita' }) } as unknown as TeamCommands;
    const server = await startCommandServer({ type: 'slack', port: 0, secret: SLACK_SECRET }, quick, () => undefined, { slackResponseOrigin: slack.origin });
    try {
      const body = new URLSearchParams({ command: '/cs-memo', text: 'rita call back', user_name: 'jun', response_url: `${slack.origin}/commands/T1/memo/secret` }).toString();
      const timestamp = String(Math.floor(Date.now() / 1000));
      const signature = `v0=${createHmac('sha256', SLACK_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
      const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': timestamp, 'x-slack-signature': signature }, body });
      expect(await response.json()).toEqual({ response_type: 'in_channel', text: 'memo kept for rita' });
    } finally {
      const asked = Date.now();
      await server.close();
      expect(Date.now() - asked).toBeLessThan(200);
      await slack.close();
    }
    expect(slack.received).toEqual([]);
  });
});
