import type { ErrorCode } from '@brandwire/domain';
import { LIST_CHANNELS_HINT, MISSING_CHANNEL } from './channel';
import { CliError } from './cli-error';
import { EXIT, type ExitCode, exitCodeOf } from './exit-codes';
import { noAnswer, unansweredChange } from './unanswered';

export interface Failure {
  code: string;
  message: string;
  exit: ExitCode;
  details: Record<string, unknown>;
  hint: string | undefined;
}

/** The shape of the client's ApiError, read without loading the client (and its HTTP library) up front. */
interface ApiErrorLike {
  name: 'ApiError';
  status: number;
  code: string;
  message: string;
  errorCode: ErrorCode | undefined;
}

function isApiError(error: unknown): error is ApiErrorLike {
  return error instanceof Error && error.name === 'ApiError' && typeof (error as Partial<ApiErrorLike>).status === 'number';
}

function isNetworkError(error: unknown): error is Error & { code: 'NETWORK' } {
  return error instanceof Error && error.name === 'NetworkError';
}

/** oclif's own errors (flag and argument parsing) carry `oclif.exit`; a parse error also what was parsed. */
interface OclifError extends Error {
  oclif: { exit?: number };
  /** RequiredArgsError: the arguments missing */
  args?: unknown;
  parse?: { input?: { flags?: Record<string, { aliases?: string[]; multiple?: boolean; multipleNonGreedy?: boolean } | undefined> } };
}

function isOclifError(error: unknown): error is OclifError {
  return error instanceof Error && typeof (error as { oclif?: unknown }).oclif === 'object';
}

/** oclif's parse message as one line for people: its argument list and flag names as they are typed. */
function parseMessage(error: OclifError): string {
  const lines = error.message
    .split('\n')
    // oclif dims the reasons on a terminal
    // eslint-disable-next-line no-control-regex -- the escape sequences of its colours
    .map((line) => line.replace(/\u001b\[\d+m/g, '').trim())
    .filter((line) => line !== '' && !/^The following errors? occurred:$/.test(line) && !line.startsWith('See more help with'));
  const missingArgs = Array.isArray(error.args) && /^Missing \d+ required args?\b/.test(error.message) ? (error.args as Array<{ name?: string; description?: string }>) : undefined;
  if (missingArgs) {
    // oclif lists each argument on a line of its own (a name, spaces, the description)
    const named = missingArgs.map((a) => `<${a.name ?? '?'}>${a.description ? ` (${a.description})` : ''}`).join(', ');
    // oclif notes that arguments go before a flag of many values; untrue of one that takes a value per use
    const greedy = Object.values(error.parse?.input?.flags ?? {}).some((flag) => flag?.multiple === true && flag.multipleNonGreedy !== true);
    const note = greedy ? lines.findIndex((line) => line.startsWith('Note:')) : -1;
    return [`Missing ${missingArgs.length} required arg${missingArgs.length === 1 ? '' : 's'}: ${named}`, ...(note < 0 ? [] : [lines.slice(note).join(' ')])].join('; ');
  }
  return lines
    .map((line) => {
      const flag = /^Missing required flag (\S+)$/.exec(line)?.[1];
      if (flag === undefined) return line;
      if (flag === 'channel') return MISSING_CHANNEL;
      const aliases = error.parse?.input?.flags?.[flag]?.aliases ?? [];
      return `Missing required flag --${flag}${aliases.length > 0 ? ` (alias: ${aliases.map((a) => `--${a}`).join(', ')})` : ''}`;
    })
    .join('; ');
}

/** The key in use comes from BRANDWIRE_TOKEN when it is set and not empty, as the session takes it; else it is the stored one. */
function keyFromEnvironment(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env['BRANDWIRE_TOKEN']);
}

function hintFor(code: string, env: NodeJS.ProcessEnv): string | undefined {
  switch (code) {
    case 'UNAUTHORIZED':
      // setup and login store a key, which BRANDWIRE_TOKEN would still override
      return keyFromEnvironment(env)
        ? 'the key in BRANDWIRE_TOKEN was refused: set it to a key of this service, or unset it to use the stored key'
        : 'the stored key was refused: run `brandwire setup <key>` or `brandwire login` again';
    case 'FORBIDDEN':
      return 'this key lacks the scope or the channel (one that does not exist is answered alike): `brandwire whoami` shows what it may do';
    case 'NETWORK':
    case 'BAD_RESPONSE':
      return 'check --endpoint (or BRANDWIRE_ENDPOINT): `brandwire env` shows the one in use';
    default:
      // an answer without the error envelope (HTTP_404, HTTP_502, ...): maybe not the service at all
      return /^HTTP_\d+$/.test(code) ? hintFor('BAD_RESPONSE', env) : undefined;
  }
}

/** What any failure of a command is reported as: its code, message, exit code and details; `env` tells where the key in use came from. */
export function failureOf(error: unknown, env: NodeJS.ProcessEnv = process.env): Failure {
  if (error instanceof CliError) return { code: error.code, message: error.message, exit: error.exit, details: error.details, hint: error.hint };
  if (isApiError(error)) {
    const exit = error.errorCode ? exitCodeOf(error.errorCode) : EXIT.error;
    return { code: error.code, message: error.message, exit, details: { status: error.status }, hint: hintFor(error.code, env) };
  }
  const change = unansweredChange(error);
  if (change) return { code: 'TIMEOUT', message: `${noAnswer(change)}: ${change.method} ${change.path} may have been carried out`, exit: EXIT.error, details: {}, hint: 'check whether it took effect before doing it again' };
  if (isNetworkError(error)) return { code: 'NETWORK', message: error.message, exit: EXIT.error, details: {}, hint: hintFor('NETWORK', env) };
  // Ctrl-C at a prompt (@inquirer/prompts says "User force closed the prompt with SIGINT")
  if (error instanceof Error && error.name === 'ExitPromptError') return { code: 'CANCELLED', message: 'cancelled at the prompt: nothing was stored', exit: EXIT.error, details: {}, hint: undefined };
  if (isOclifError(error)) {
    const message = parseMessage(error);
    return { code: 'USAGE', message, exit: EXIT.usage, details: {}, hint: message === MISSING_CHANNEL ? LIST_CHANNELS_HINT : 'see --help for the flags and arguments' };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'INTERNAL', message, exit: EXIT.error, details: {}, hint: undefined };
}
