import type { ScheduleResponse } from '@brandwire/client';
import { BrandwireCommand } from '../../base-command';
import { channelOf } from '../../lib/channel';
import { connect } from '../../lib/connect';
import { channelFlag } from '../../lib/flags';
import { presentSchedule } from '../../lib/present';

export default class ScheduleGet extends BrandwireCommand {
  static override summary = "Show the channel's consultation hours and whether it is open now";
  static override examples = ['<%= config.bin %> schedule get --channel acme-kakao', '<%= config.bin %> schedule get --channel acme-kakao --json'];
  static override flags = { channel: channelFlag() };

  async run(): Promise<ScheduleResponse> {
    const { flags } = await this.parse(ScheduleGet);
    const session = this.session();
    const reply = await (await connect(session)).schedule(channelOf(flags.channel, session));
    await this.show(() => presentSchedule(reply));
    return reply;
  }
}
