import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messageOf } from '../gateway-log';
import { markdownEscaped, slackEscaped } from '../relay/relay-event';
import { isGenuine } from './command-auth';
import { commandOf } from './command-request';
import { COMMANDS_PATH, type CommandSettings } from './command-settings';
import type { TeamCommands } from './team-commands';

const LARGEST_BODY = 64 * 1024;

export interface CommandServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Takes the team chat's commands on loopback (`POST /chat/command`; a tunnel or a proxy brings them from the team
 * chat), each checked for the team chat's signature or token before anything is read from it, and answers in the
 * team chat's own format: Slack `{response_type, text}`, Teams `{type: "message", text}`, else `{ok, text}`.
 */
export async function startCommandServer(settings: CommandSettings, commands: TeamCommands, report: (line: string) => void): Promise<CommandServer> {
  const server = createServer((req, res) => {
    handle(settings, commands, req, res, report).catch((error: unknown) => {
      report(`error: a team-chat command failed: ${messageOf(error)}`);
      if (!res.headersSent) answer(res, 500, { ok: false, code: 'INTERNAL', message: 'the command failed; the gateway log says why' });
    });
  });
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`the team-chat commands port ${settings.port} on 127.0.0.1 is taken (the setting gateway.commands.port)`) : error),
    );
    server.listen(settings.port, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${COMMANDS_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(settings: CommandSettings, commands: TeamCommands, req: IncomingMessage, res: ServerResponse, report: (line: string) => void): Promise<void> {
  if (req.url?.split('?')[0] !== COMMANDS_PATH) return answer(res, 404, { ok: false, code: 'NO_ROUTE', message: `the team chat's commands go to POST ${COMMANDS_PATH}` });
  if (req.method !== 'POST') return answer(res, 405, { ok: false, code: 'METHOD_NOT_ALLOWED', message: `POST ${COMMANDS_PATH}` });
  const body = await readBody(req);
  if (body === undefined) return answer(res, 413, { ok: false, code: 'PAYLOAD_TOO_LARGE', message: `a command request is at most ${LARGEST_BODY / 1024} KB` });
  if (!isGenuine(settings, req.headers, body)) {
    report(`error: a team-chat command request was refused: its ${settings.type === 'slack' ? 'signature (or its time)' : settings.type === 'teams' ? 'HMAC' : 'token'} is wrong`);
    return answer(res, 401, { ok: false, code: 'UNAUTHORIZED', message: 'the request is not signed by the team chat' });
  }
  const request = commandOf(settings.type, body, req.headers['content-type'] ?? '');
  if (typeof request === 'string') return reply(settings, res, request, false);
  reply(settings, res, await commands.run(request), true);
}

/** The answer in the team chat's format; a mistake in the command (`done` false) is shown only to whoever typed it in Slack. */
function reply(settings: CommandSettings, res: ServerResponse, text: string, done: boolean): void {
  switch (settings.type) {
    case 'slack':
      return answer(res, 200, { response_type: done ? 'in_channel' : 'ephemeral', text: slackEscaped(text) });
    case 'teams':
      return answer(res, 200, { type: 'message', text: markdownEscaped(text) });
    case 'webhook':
    case 'discord':
      return answer(res, done ? 200 : 400, done ? { ok: true, text } : { ok: false, code: 'BAD_REQUEST', message: text });
  }
}

function answer(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** The body, or undefined when it is larger than a command can be. */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > LARGEST_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
