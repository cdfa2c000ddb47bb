import type { ChatToggleResponse } from '@brandwire/client';
import { BrandwireCommand } from '../../base-command';
import { channelOf } from '../../lib/channel';
import { connect } from '../../lib/connect';
import { channelFlag } from '../../lib/flags';
import { requireOk } from '../../lib/results';

export default class ChatActivate extends BrandwireCommand {
  static override summary = "Turn the channel's chat on: customers can start consultations (Admin key)";
  static override description = 'Needs an Admin key; a BrandWrite key gets 403 FORBIDDEN.';
  static override examples = ['<%= config.bin %> chat activate --channel acme-kakao', '<%= config.bin %> chat activate --channel acme-kakao --json'];
  static override flags = { channel: channelFlag() };

  async run(): Promise<ChatToggleResponse> {
    const { flags } = await this.parse(ChatActivate);
    const session = this.session();
    const brandKey = channelOf(flags.channel, session);
    const reply = requireOk(await (await connect(session)).setChatActive({ brandKey, active: true }), { brand: brandKey });
    await this.show(() => `Chat on ${reply.brand} is now ${reply.active ? 'active' : 'deactivated'}.`);
    return reply;
  }
}
