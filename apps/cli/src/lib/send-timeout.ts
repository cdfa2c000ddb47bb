import { CliError } from './cli-error';
import { EXIT } from './exit-codes';
import { shellCommand, shellWord } from './shell-words';
import { noAnswer, unansweredChange } from './unanswered';

export interface SentWithKey {
  brandKey: string;
  userKey: string;
  idempotencyKey: string;
  /** the words of the same send with its key: `brandwire send … --idempotency-key <key>` */
  repeat: readonly string[];
}

/**
 * A send whose answer never came as TIMEOUT: it may have been delivered, so the hint says how to look and gives the
 * repeat with the same Idempotency-Key, which the service answers with the first answer instead of a second bubble.
 * Any other failure is returned as it is.
 */
export function sendTimedOut(error: unknown, send: SentWithKey): unknown {
  const change = unansweredChange(error);
  if (change === undefined) return error;
  const { brandKey, userKey, idempotencyKey } = send;
  return new CliError(
    'TIMEOUT',
    `${noAnswer(change)}: the send may have been delivered`,
    EXIT.error,
    { brandKey, userKey, idempotencyKey },
    `\`brandwire rooms --channel ${shellWord(brandKey)} --to ${shellWord(userKey)}\` shows whether it arrived; sending it again with its key is safe (a repeat gets the first answer, never a second bubble): ${shellCommand(send.repeat)}`,
  );
}
