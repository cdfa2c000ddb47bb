import type { SystemMessagesResponse } from '@brandwire/client';
import { BrandwireCommand } from '../base-command';
import { connect } from '../lib/connect';
import { requiredChannelFlag } from '../lib/flags';
import { presentSystemMessages } from '../lib/present';

export default class Sysmsg extends BrandwireCommand {
  static override summary = "Show the channel's system messages (greeting, out of hours, auto answers S1 to S4)";
  static override examples = ['<%= config.bin %> sysmsg --channel acme-kakao', '<%= config.bin %> sysmsg --channel acme-kakao --json'];
  static override flags = { channel: requiredChannelFlag() };

  async run(): Promise<SystemMessagesResponse> {
    const { flags } = await this.parse(Sysmsg);
    const reply = await (await connect(this.session())).systemMessages(flags.channel);
    await this.show(() => presentSystemMessages(reply));
    return reply;
  }
}
