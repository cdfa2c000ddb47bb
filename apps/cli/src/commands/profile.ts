import type { ProfileResponse } from '@brandwire/client';
import { BrandwireCommand } from '../base-command';
import { connect } from '../lib/connect';
import { requiredChannelFlag } from '../lib/flags';
import { fields } from '../lib/output';

export default class Profile extends BrandwireCommand {
  static override summary = "Show the channel's sender profile";
  static override examples = ['<%= config.bin %> profile --channel acme-kakao', '<%= config.bin %> profile --channel acme-kakao --json'];
  static override flags = { channel: requiredChannelFlag() };

  async run(): Promise<ProfileResponse> {
    const { flags } = await this.parse(Profile);
    const reply = await (await connect(this.session())).profile(flags.channel);
    const p = reply.profile;
    await this.show(() =>
      fields([
        ['channel', reply.brand],
        ['name', p.name],
        ['brand', p.brandId],
        ['type', p.type],
        ['chatbot builder', p.chatbotBuilder ? 'yes' : 'no'],
        ['status', p.status],
        ['sender key', p.senderKey],
      ]),
    );
    return reply;
  }
}
