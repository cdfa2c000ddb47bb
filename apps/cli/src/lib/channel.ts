import { authRequired, usageError } from './cli-error';
import type { Session } from './config-store';

/**
 * The channel (brand key) of a command that calls the service: --channel (or its old name --brand), else the
 * default stored by `setup` where the spec lets --channel be left out. Without a key the missing key is told
 * first (AUTH_REQUIRED): it is what a new user lacks, and `setup` also stores the default channel.
 */
export function channelOf(flag: string | undefined, session: Session, useDefault = true): string {
  if (!session.token) throw authRequired();
  if (flag) return flag;
  if (useDefault && session.channel) return session.channel;
  throw usageError(
    'missing --channel: the brand key of the channel, e.g. --channel acme-kakao',
    useDefault ? '`brandwire whoami` lists the channels; `brandwire setup <key> --channel <key>` stores a default' : '`brandwire whoami` lists the channels',
  );
}
