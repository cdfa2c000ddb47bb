import { CLIError } from '@oclif/core/errors';
import { string } from '@oclif/core/flags';

const CHANNEL = 'brand key of the channel, e.g. acme-kakao (old name: --brand)';
const TO = "the customer's key, userKey (alias: --user)";

/** --channel, required on the command line: the brand key; --brand is its old name (tool versions 1.1 and below). */
export function requiredChannelFlag() {
  return string({ description: CHANNEL, aliases: ['brand'], helpValue: '<key>', required: true });
}

/** --channel where it may be left out for the default channel stored by setup. */
export function channelFlag() {
  return string({ description: `${CHANNEL}; defaults to the channel stored by setup`, aliases: ['brand'], helpValue: '<key>' });
}

/** An empty or blank customer key is refused on the command line (a usage error), before the service is asked. */
async function customerKey(value: string): Promise<string> {
  if (value.trim() === '') throw new CLIError("the customer's key (userKey) is empty");
  return value;
}

/** --to: the customer's userKey; --user is an alias. */
export function toFlag() {
  return string({ description: TO, aliases: ['user'], helpValue: '<userKey>', required: true, parse: customerKey });
}

export function optionalToFlag(description = TO) {
  return string({ description, aliases: ['user'], helpValue: '<userKey>', parse: customerKey });
}
