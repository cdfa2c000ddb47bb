import { DomainError } from '@brandwire/domain';

/**
 * A send the messenger accepted that the database did not record (its journal item, its count): the customer has
 * the message, so the request is not to be made again. Answered 503, naming the serial, while the records are
 * written in the background; `journaled` settles once they are.
 */
export class SendNotJournaledError extends DomainError {
  /** the answer the send would have had: an Idempotency-Key's replay once it is recorded (else this error's) */
  answer: unknown;

  constructor(
    readonly serial: string,
    readonly journaled: Promise<void>,
    cause: unknown,
  ) {
    super(
      'STORAGE_UNAVAILABLE',
      `the messenger accepted the message (serial ${serial}), but the database did not record it: it is recorded as soon as the database answers; do not send it again`,
    );
    this.cause = cause;
  }
}
