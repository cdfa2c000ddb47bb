import { type ErrorCode, httpStatusOf } from '@brandwire/domain';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messageOf } from '../gateway-log';
import { markdownEscaped, slackEscaped } from '../relay/relay-event';
import { SIGNED_MAX_AGE_S, isGenuine, signatureHeaderOf } from './command-auth';
import { type CommandRequest, commandOf, slackResponseUrlOf } from './command-request';
import { COMMANDS_PATH, type CommandSettings } from './command-settings';
import { DISCORD_PONG, type LaterAnswer, discordAnswer, discordDeferral, discordInteractionOf, discordMessage } from './discord-interaction';
import { DISCORD_API, ThinkingLeft, giveLaterAnswer } from './discord-later-answer';
import { OwedAnswers, STOPPED, STOPPED_TOLD_WITHIN_MS, STOPPING, stoppedBefore } from './owed-answers';
import { SLACK_RESPONSE_ORIGIN, giveSlackLaterAnswer, slackAcknowledgement, slackLaterAnswerOf, slackMessage } from './slack-later-answer';
import type { CommandOutcome, TeamCommands } from './team-commands';

const LARGEST_BODY = 64 * 1024;
/** How long each team chat waits for an answer (Slack and Discord 3 s, Teams 5 s), less the way back. */
const ANSWER_WITHIN_MS: Readonly<Record<CommandSettings['type'], number>> = { slack: 2_500, teams: 4_500, webhook: 25_000, discord: 2_500 };
const TEAM_CHAT_NAMES: Readonly<Record<CommandSettings['type'], string>> = { slack: 'Slack', teams: 'Teams', discord: 'Discord', webhook: 'the team chat' };
/**
 * How long a command answered later may run before the asker is told it takes too long: Discord takes an answer for
 * 15 minutes after the interaction (its token's lifetime), Slack for 30 after the command (its response_url's), each
 * less time for the answer to get there.
 */
const DEFERRED_WITHIN_MS = { discord: 14 * 60_000, slack: 29 * 60_000 } as const;
/** At most one line per this long about refused requests, with their count: a flood does not fill the log. */
const REFUSALS_LOGGED_EVERY_MS = 10_000;

export interface CommandServer {
  url: string;
  close(): Promise<void>;
}

export interface CommandServerOptions {
  /** where deferred Discord answers are given (Discord's API unless told) */
  discordApi?: string;
  /** the only origin whose Slack response_url a later answer is posted to (https://hooks.slack.com unless told) */
  slackResponseOrigin?: string;
  /** how long a command answered later may run before the asker is told it takes too long (Discord 14 minutes, Slack 29, unless told) */
  deferredAnswerWithinMs?: number;
}

/**
 * Takes the team chat's commands on loopback (`POST /chat/command`; a tunnel or a proxy brings them from the team
 * chat), each checked for the team chat's signature or token before anything is read from it, and answers in the
 * team chat's own format: Slack `{response_type, text}`, Teams `{type: "message", text}`, Discord an interaction
 * response (`{type: 4, data: {content, …}}`; its PING `{type: 1}`; a command that takes longer than Discord waits is
 * deferred, `{type: 5}`, and its answer edited in once it is done), else `{ok, text}`. A Slack command that takes
 * longer than Slack waits is acknowledged, and its answer posted to the request's response_url once it is done.
 * Its close waits a few seconds for the answers being made, and tells whoever still waits that the gateway stopped
 * (see OwedAnswers).
 */
export async function startCommandServer(settings: CommandSettings, commands: TeamCommands, report: (line: string) => void, options: CommandServerOptions = {}): Promise<CommandServer> {
  const guard = new RequestGuard(settings, report);
  const later: LaterAnswers = {
    discordApi: options.discordApi ?? DISCORD_API,
    slackOrigin: options.slackResponseOrigin ?? SLACK_RESPONSE_ORIGIN,
    withinMs: options.deferredAnswerWithinMs ?? (settings.type === 'slack' ? DEFERRED_WITHIN_MS.slack : DEFERRED_WITHIN_MS.discord),
    owed: new OwedAnswers(),
  };
  // the answers not sent yet: once the stop began, each one closes its connection, so that no command comes on it
  const unanswered = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    unanswered.add(res);
    res.once('close', () => unanswered.delete(res));
    if (later.owed.stopping) closesConnection(res);
    handle(settings, commands, guard, later, report, req, res).catch((error: unknown) => {
      report(`error: a team-chat command failed: ${messageOf(error)}`);
      if (!res.headersSent) refusal(res, 'INTERNAL', 'the command failed; the gateway log says why');
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
    close: async () => {
      // no command is taken any more; those under way are answered, or told that the gateway stopped
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const answered = later.owed.stop();
      unanswered.forEach(closesConnection);
      await answered;
      server.closeAllConnections();
      await closed;
    },
  };
}

async function handle(
  settings: CommandSettings,
  commands: TeamCommands,
  guard: RequestGuard,
  later: LaterAnswers,
  report: (line: string) => void,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (req.url?.split('?')[0] !== COMMANDS_PATH) return refusal(res, 'NO_ROUTE', `the team chat's commands go to POST ${COMMANDS_PATH}`);
  if (req.method !== 'POST') return refusal(res, 'METHOD_NOT_ALLOWED', `POST ${COMMANDS_PATH}`);
  const body = await readBody(req);
  if (body === undefined) return refusal(res, 'PAYLOAD_TOO_LARGE', `a command request is at most ${LARGEST_BODY / 1024} KB`);
  const why = guard.refusal(req, body);
  if (why !== undefined) return refusal(res, 'UNAUTHORIZED', why);
  let request: CommandRequest | string;
  let discordLater: LaterAnswer | undefined;
  let slackLater: URL | undefined;
  if (settings.type === 'discord') {
    const interaction = discordInteractionOf(body);
    if (interaction.kind === 'ping') return answer(res, 200, DISCORD_PONG);
    if (interaction.kind === 'refused') return refusal(res, 'BAD_REQUEST', interaction.why);
    request = interaction.request;
    discordLater = interaction.later;
  } else {
    request = commandOf(settings.type, body, req.headers['content-type'] ?? '');
    if (settings.type === 'slack') slackLater = slackLaterAnswerOf(slackResponseUrlOf(body), later.slackOrigin);
  }
  if (typeof request === 'string') return reply(settings, res, { outcome: 'mistake', text: request });
  // a command that comes once the stop began (its request still arriving then) is not run: the stop would not wait for it
  if (later.owed.stopping) return reply(settings, res, STOPPING);
  return later.owed.owe(answerCommand(settings, commands.run(request), request.command, { later, discord: discordLater, slack: slackLater }, res, report));
}

/** Answers the command at once when it is done in time, else later where the team chat takes a later answer. */
async function answerCommand(
  settings: CommandSettings,
  running: Promise<CommandOutcome>,
  command: CommandRequest['command'],
  { later, discord, slack }: { later: LaterAnswers; discord: LaterAnswer | undefined; slack: URL | undefined },
  res: ServerResponse,
  report: (line: string) => void,
): Promise<void> {
  const outcome = await settledWithin(later.owed.orStopped(running), ANSWER_WITHIN_MS[settings.type], () => 'late' as const);
  if (outcome === STOPPED) return reply(settings, res, stoppedBefore(command));
  if (outcome !== 'late') return reply(settings, res, outcome);
  if (discord) return deferDiscordAnswer(later, discord, command, running, res, report);
  if (slack) return deferSlackAnswer(later, slack, command, running, res, report);
  // a team chat that waited too long shows an error of its own: it is told in time that the command goes on
  reply(settings, res, takingLonger(command, `${TEAM_CHAT_NAMES[settings.type]} waits`));
}

/** The promise's value, or `late()`'s when it has not settled within `ms`. */
async function settledWithin<T, L>(running: Promise<T>, ms: number, late: () => L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([running, new Promise<L>((resolve) => (timer = setTimeout(() => resolve(late()), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

function takingLonger(command: CommandRequest['command'], than: string): CommandOutcome {
  return { outcome: 'failed', text: `${command} is taking longer than ${than}; it goes on, and /cs-who shows how it ended` };
}

interface LaterAnswers {
  discordApi: string;
  slackOrigin: string;
  withinMs: number;
  owed: OwedAnswers;
}

/**
 * Gives the command's outcome with `give` once it is done, or, once it has run `withinMs`, that it takes longer than
 * the team chat lets the gateway answer (it goes on), or, when the gateway stops first, that it stopped before the
 * answer was ready (given within the stop's bound); logs `failure`'s line when the answer could not be given.
 */
async function answerWhenDone(
  running: Promise<CommandOutcome>,
  command: CommandRequest['command'],
  { chat, later }: { chat: string; later: LaterAnswers },
  give: (outcome: CommandOutcome, timeoutMs?: number) => Promise<void>,
  failure: (error: unknown) => string,
  report: (line: string) => void,
): Promise<void> {
  const outcome = await settledWithin(later.owed.orStopped(running), later.withinMs, () => takingLonger(command, `${chat} lets the gateway answer`));
  try {
    if (outcome !== STOPPED) return await give(outcome);
    await give(stoppedBefore(command), STOPPED_TOLD_WITHIN_MS);
    report(`the answer to ${command} was not ready when the gateway stopped; the asker was told to ask again`);
  } catch (error) {
    report(failure(error));
  }
}

/**
 * Answers Discord "thinking…" now and gives the answer once the command is done: in the channel, except for /cs-who,
 * whose answer (a customer's words, the memos) is for the asker only, as a mistake or a failure is. A command still
 * running when the answer can hardly be given any more is answered that it takes too long (it goes on).
 */
function deferDiscordAnswer(later: LaterAnswers, interaction: LaterAnswer, command: CommandRequest['command'], running: Promise<CommandOutcome>, res: ServerResponse, report: (line: string) => void): Promise<void> {
  const deferredForAsker = command === '/cs-who';
  answer(res, 200, discordDeferral(deferredForAsker));
  return answerWhenDone(
    running,
    command,
    { chat: 'Discord', later },
    ({ outcome, text, private: forAsker }, timeoutMs) => giveLaterAnswer(later.discordApi, interaction, deferredForAsker, discordMessage(text, outcome !== 'done' || forAsker === true), timeoutMs),
    (error) =>
      error instanceof ThinkingLeft
        ? `error: the deferred Discord answer to ${command} was given to the asker, but the "thinking…" in the channel could not be removed (${error.message})`
        : `error: the deferred Discord answer to ${command} could not be given (${messageOf(error)}): the asker goes on seeing "thinking…" in Discord; /cs-who shows how the command ended`,
    report,
  );
}

/**
 * Answers Slack now, for the asker only, that the command is under way, and posts its answer to the response_url
 * once it is done, as it would have been given at once; one still running when the response_url can hardly be used
 * any more is answered that it takes too long (it goes on).
 */
function deferSlackAnswer(later: LaterAnswers, responseUrl: URL, command: CommandRequest['command'], running: Promise<CommandOutcome>, res: ServerResponse, report: (line: string) => void): Promise<void> {
  answer(res, 200, slackAcknowledgement(command));
  return answerWhenDone(
    running,
    command,
    { chat: 'Slack', later },
    (outcome, timeoutMs) => giveSlackLaterAnswer(responseUrl, slackMessage(outcome), timeoutMs),
    (error) => `error: the later Slack answer to ${command} could not be given (${messageOf(error)}): the asker sees only that it is under way; /cs-who shows how the command ended`,
    report,
  );
}

/** Checks each request's signature or token, refuses a signed request seen before (a replay), and logs refusals sparingly. */
class RequestGuard {
  private readonly seen = new Map<string, number>();
  private refused = 0;
  private loggedAt = 0;

  constructor(
    private readonly settings: CommandSettings,
    private readonly report: (line: string) => void,
  ) {}

  /** Why the request is refused; undefined when it comes from the team chat, once. */
  refusal(req: IncomingMessage, body: Buffer): string | undefined {
    const now = Date.now();
    const signatureHeader = signatureHeaderOf(this.settings.type);
    if (!isGenuine(this.settings, req.headers, body, now)) return this.refuse(now, `its ${signatureHeader ? 'signature (or its time)' : this.settings.type === 'teams' ? 'HMAC' : 'token'} is wrong`, 'the request is not signed by the team chat');
    if (signatureHeader === undefined) return undefined;
    for (const [signature, until] of this.seen) if (until < now) this.seen.delete(signature);
    // a signature is hex: the same in capitals is the same request
    const signature = String(req.headers[signatureHeader]).toLowerCase();
    if (this.seen.has(signature)) return this.refuse(now, 'it was sent before (a replay)', 'the request was sent before');
    this.seen.set(signature, now + SIGNED_MAX_AGE_S * 1000);
    return undefined;
  }

  private refuse(now: number, why: string, message: string): string {
    this.refused++;
    if (now - this.loggedAt >= REFUSALS_LOGGED_EVERY_MS) {
      this.report(`error: a team-chat command request was refused: ${why}${this.refused > 1 ? ` (${this.refused} refused since the last such line)` : ''}`);
      this.loggedAt = now;
      this.refused = 0;
    }
    return message;
  }
}

/**
 * The answer in the team chat's format: in Slack and Discord a mistake or a failure is shown only to whoever typed
 * the command; a `webhook` team chat gets 400 for a mistake and 502 for a failure of the service.
 */
function reply(settings: CommandSettings, res: ServerResponse, said: CommandOutcome): void {
  const { outcome, text, private: forAsker } = said;
  switch (settings.type) {
    case 'slack':
      return answer(res, 200, slackMessage(said));
    case 'teams':
      // Teams renders Markdown and some HTML: neither is taken from a customer's or an agent's words
      return answer(res, 200, { type: 'message', text: markdownEscaped(slackEscaped(text)) });
    case 'discord':
      return answer(res, 200, discordAnswer(text, outcome !== 'done' || forAsker === true));
    case 'webhook':
      if (outcome === 'done') return answer(res, 200, { ok: true, text });
      return refusal(res, outcome === 'mistake' ? 'BAD_REQUEST' : 'UPSTREAM_UNAVAILABLE', text);
  }
}

/** The service's error envelope, with the status of its code. */
function refusal(res: ServerResponse, code: ErrorCode, message: string): void {
  answer(res, httpStatusOf(code), { ok: false, code, message });
}

/** Has the answer, when not sent yet, close its connection once sent. */
function closesConnection(res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('connection', 'close');
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
