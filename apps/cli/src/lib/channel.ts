import { authRequired, usageError } from './cli-error';
import type { Session } from './config-store';

/** What a missing --channel is told, whether oclif's parser or channelOf finds it missing. */
export const MISSING_CHANNEL = 'missing --channel: the brand key of the channel, e.g. --channel acme-kakao';
export const LIST_CHANNELS_HINT = '`brandwire whoami` lists the channels';

/**
 * The channel (brand key) of a command that calls the service: --channel (or its old name --brand), else the
 * default stored by `setup` where the spec lets --channel be left out. Without a key the missing key is told
 * first (AUTH_REQUIRED): it is what a new user lacks, and `setup` also stores the default channel.
 */
export function channelOf(flag: string | undefined, session: Session, useDefault = true): string {
  if (!session.token) throw authRequired();
  if (flag !== undefined) return flag;
  if (useDefault && session.channel) return session.channel;
  throw usageError(MISSING_CHANNEL, useDefault ? `${LIST_CHANNELS_HINT}; \`brandwire setup <key> --channel <key>\` stores a default` : LIST_CHANNELS_HINT);
}
