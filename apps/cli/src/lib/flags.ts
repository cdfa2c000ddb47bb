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

/** --to: the customer's userKey; --user is an alias. */
export function toFlag() {
  return string({ description: TO, aliases: ['user'], helpValue: '<userKey>', required: true });
}

export function optionalToFlag(description = TO) {
  return string({ description, aliases: ['user'], helpValue: '<userKey>' });
}
