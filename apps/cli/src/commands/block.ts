import type { SessionActionResponse } from '@brandwire/client';
import { BrandwireCommand } from '../base-command';
import { channelOf } from '../lib/channel';
import { connect } from '../lib/connect';
import { channelFlag, toFlag } from '../lib/flags';
import { requireOk } from '../lib/results';

export default class Block extends BrandwireCommand {
  static override summary = 'Block a customer (this ends the consultation in progress, if any)';
  static override examples = ['<%= config.bin %> block --channel acme-kakao --to alice', '<%= config.bin %> block --brand acme-kakao --user alice --json'];
  static override flags = { channel: channelFlag(), to: toFlag() };

  async run(): Promise<SessionActionResponse & { brandKey: string; userKey: string }> {
    const { flags } = await this.parse(Block);
    const session = this.session();
    const target = { brandKey: channelOf(flags.channel, session), userKey: flags.to };
    const reply = requireOk(await (await connect(session)).block(target), target);
    await this.show(() => `Blocked ${target.userKey} on ${target.brandKey}${endedClause(reply)}.`);
    return { ...reply, ...target };
  }
}

/** What became of the consultation: sessionId null when none was in progress (an older service leaves it out). */
function endedClause(reply: SessionActionResponse): string {
  if (reply.sessionId === undefined) return '';
  return reply.sessionId === null ? '; no consultation was in progress' : '; this ended the consultation in progress';
}
