import { createHash } from 'node:crypto';

/** The messenger's sender key of a channel: 40 lowercase hex digits, the SHA-1 of the channel key. */
export function senderKeyOf(channelKey: string): string {
  return createHash('sha1').update(channelKey, 'utf8').digest('hex');
}
