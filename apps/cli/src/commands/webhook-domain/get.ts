import type { WebhookSettings } from '@brandwire/client';
import { BrandwireCommand } from '../../base-command';
import { channelOf } from '../../lib/channel';
import { connect } from '../../lib/connect';
import { channelFlag } from '../../lib/flags';
import { fields } from '../../lib/output';
import { shownWebhook } from '../../lib/results';

export default class WebhookDomainGet extends BrandwireCommand {
  static override summary = "Show the channel's inbound domain: the webhook URL that receives the signals";
  static override description = 'Any key with the brand can read it; the signing secret of a connected webhook is shown to Admin keys only.';
  static override examples = ['<%= config.bin %> webhook-domain get --channel acme-kakao', '<%= config.bin %> webhook-domain get --channel acme-kakao --json'];
  static override flags = { channel: channelFlag() };

  async run(): Promise<WebhookSettings> {
    const { flags } = await this.parse(WebhookDomainGet);
    const session = this.session();
    const reply = shownWebhook(await (await connect(session)).webhook(channelOf(flags.channel, session)));
    await this.show(() =>
      fields([
        ['channel', reply.brand],
        ['url', reply.url ?? 'none connected'],
        ...(reply.secret ? [['secret', reply.secret] as [string, string]] : []),
      ]),
    );
    return reply;
  }
}
