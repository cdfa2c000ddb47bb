import { CLIError } from '@oclif/core/errors';
import { string } from '@oclif/core/flags';

const CHANNEL = 'brand key of the channel, e.g. acme-kakao (old name: --brand)';
const TO = "the customer's key, userKey (alias: --user)";

/**
 * A parse that refuses an empty or blank value on the command line (a usage error), before the service is asked:
 * `what` names the value, as in "the convId is empty".
 */
export function nonBlank(what: string): (value: string) => Promise<string> {
  return async (value) => {
    if (value.trim() === '') throw new CLIError(`${what} is empty`);
    return value;
  };
}

const channelKey = nonBlank('the brand key of the channel');

/**
 * --channel (old name --brand, tool versions 1.1 and below): the brand key. `description` says what leaving it out
 * means; an empty or blank one is refused rather than taken as left out.
 */
export function channelFlag(description = `${CHANNEL}; defaults to the channel stored by setup`) {
  return string({ description, aliases: ['brand'], helpValue: '<key>', parse: channelKey });
}

/** --channel, required on the command line. */
export function requiredChannelFlag() {
  return string({ description: CHANNEL, aliases: ['brand'], helpValue: '<key>', required: true, parse: channelKey });
}

const customerKey = nonBlank("the customer's key (userKey)");

/** --to: the customer's userKey; --user is an alias. */
export function toFlag() {
  return string({ description: TO, aliases: ['user'], helpValue: '<userKey>', required: true, parse: customerKey });
}

export function optionalToFlag(description = TO) {
  return string({ description, aliases: ['user'], helpValue: '<userKey>', parse: customerKey });
}

/** What the service takes as an Idempotency-Key: 1 to 255 visible ASCII characters. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

async function idempotencyKey(value: string): Promise<string> {
  if (!IDEMPOTENCY_KEY.test(value)) throw new CLIError('the idempotency key must be 1 to 255 visible ASCII characters (no spaces)');
  return value;
}

/** --idempotency-key of a send: the key a repeat gives again so that the service answers it without a second bubble. */
export function idempotencyKeyFlag() {
  return string({
    description: "the send's Idempotency-Key (1 to 255 visible ASCII characters): a repeat with the same key and message gets the first answer, never a second bubble (default: a new key each time)",
    helpValue: '<key>',
    parse: idempotencyKey,
  });
}
