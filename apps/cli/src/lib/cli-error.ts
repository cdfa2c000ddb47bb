import { EXIT, type ExitCode } from './exit-codes';

/** The tool's own failure codes, beside the service's ErrorCodes and the messenger's codes (`-502`, ...). */
export type CliErrorCode =
  | 'USAGE'
  | 'AUTH_REQUIRED'
  | 'CONFIG'
  | 'FILE'
  | 'ACCESS_DENIED'
  | 'EXPIRED_TOKEN'
  | 'LOGIN_FAILED'
  | 'AI_UNAVAILABLE'
  | 'MODEL_UNKNOWN'
  /** a change was asked and no answer came in time: it may have been made */
  | 'TIMEOUT';

/**
 * A failure to report as `{ ok: false, error, code, ...details }` with --json, or `Error: …` on stderr, and its
 * exit code. `code` is a CliErrorCode, a service ErrorCode or a messenger code.
 */
export class CliError extends Error {
  override readonly name = 'CliError';

  constructor(
    readonly code: string,
    message: string,
    readonly exit: ExitCode = EXIT.error,
    readonly details: Record<string, unknown> = {},
    /** one line for people: what to do next */
    readonly hint?: string,
  ) {
    super(message);
  }
}

export function usageError(message: string, hint?: string): CliError {
  return new CliError('USAGE', message, EXIT.usage, {}, hint);
}

export function authRequired(): CliError {
  return new CliError(
    'AUTH_REQUIRED',
    'no key is stored: run `brandwire setup <key>` or `brandwire login` (or set BRANDWIRE_TOKEN)',
    EXIT.auth,
  );
}
