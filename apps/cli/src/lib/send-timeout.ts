import { CliError } from './cli-error';
import { EXIT, exitCodeOf } from './exit-codes';
import { shellCommand, shellWord } from './shell-words';
import { noAnswer, unansweredChange } from './unanswered';

export interface SentWithKey {
  brandKey: string;
  userKey: string;
  idempotencyKey: string;
  /** the words of the same send with its key: `brandwire send … --idempotency-key <key>` */
  repeat: readonly string[];
}

/** The service's 502: its call to the messenger got no answer (read without loading the client). */
function messengerUnanswered(error: unknown): error is Error & { status: number } {
  return error instanceof Error && error.name === 'ApiError' && (error as { code?: unknown }).code === 'UPSTREAM_UNAVAILABLE';
}

/**
 * A send whose answer never came as TIMEOUT: it may have been delivered, so the hint says how to look and gives the
 * repeat with the same Idempotency-Key, which the service answers with the first answer instead of a second bubble.
 * A send the service could not get the messenger to answer (502 UPSTREAM_UNAVAILABLE) may have been delivered too:
 * its hint gives the same repeat, for which the service sends the same serial again. Any other failure is returned
 * as it is.
 */
export function sendTimedOut(error: unknown, send: SentWithKey): unknown {
  const { brandKey, userKey, idempotencyKey } = send;
  if (messengerUnanswered(error)) {
    return new CliError(
      'UPSTREAM_UNAVAILABLE',
      error.message,
      exitCodeOf('UPSTREAM_UNAVAILABLE'),
      { status: error.status, brandKey, userKey, idempotencyKey },
      `the messenger may have delivered it; sending it again with its key is safe (the service sends the same serial again, and the customer gets it once): ${shellCommand(send.repeat)}`,
    );
  }
  const change = unansweredChange(error);
  if (change === undefined) return error;
  return new CliError(
    'TIMEOUT',
    `${noAnswer(change)}: the send may have been delivered`,
    EXIT.error,
    { brandKey, userKey, idempotencyKey },
    `\`brandwire rooms --channel ${shellWord(brandKey)} --to ${shellWord(userKey)}\` shows whether it arrived; sending it again with its key is safe (a repeat gets the first answer, never a second bubble): ${shellCommand(send.repeat)}`,
  );
}
