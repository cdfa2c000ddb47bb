import type { SessionActionResponse } from '@brandwire/client';
import { BrandwireCommand } from '../base-command';
import { channelOf } from '../lib/channel';
import { connect } from '../lib/connect';
import { channelFlag, toFlag } from '../lib/flags';
import { requireOk } from '../lib/results';

export default class Unblock extends BrandwireCommand {
  static override summary = 'Unblock a customer';
  static override examples = ['<%= config.bin %> unblock --channel acme-kakao --to alice', '<%= config.bin %> unblock --brand acme-kakao --user alice --json'];
  static override flags = { channel: channelFlag(), to: toFlag() };

  async run(): Promise<SessionActionResponse & { brandKey: string; userKey: string }> {
    const { flags } = await this.parse(Unblock);
    const session = this.session();
    const target = { brandKey: channelOf(flags.channel, session), userKey: flags.to };
    const reply = requireOk(await (await connect(session)).unblock(target), target);
    await this.show(() => `Unblocked ${target.userKey} on ${target.brandKey}.`);
    return { ...reply, ...target };
  }
}
