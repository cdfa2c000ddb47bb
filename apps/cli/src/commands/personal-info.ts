import { BrandwireCommand } from '../base-command';
import { channelOf } from '../lib/channel';
import { connect } from '../lib/connect';
import { channelFlag, toFlag } from '../lib/flags';
import { requireOk } from '../lib/results';
import type { SendResult } from '../lib/send-message';

export default class PersonalInfo extends BrandwireCommand {
  static override summary = "Ask the customer's consent to share their nickname and phone number (Kakao-type channels)";
  static override description =
    'Sends the fixed consent bubble, once per consultation. The answer arrives as the personal_info signal at the webhook, which must be connected first: it is relayed once and never stored.';
  static override examples = ['<%= config.bin %> personal-info --channel acme-kakao --to alice', '<%= config.bin %> personal-info --channel acme-kakao --to alice --json'];
  static override flags = { channel: channelFlag(), to: toFlag() };

  async run(): Promise<SendResult> {
    const { flags } = await this.parse(PersonalInfo);
    const session = this.session();
    const target = { brandKey: channelOf(flags.channel, session), userKey: flags.to };
    const reply = await (await connect(session)).requestPersonalInfo(target);
    requireOk(reply, { ...target, serial: reply.serial });
    await this.show(() => `Asked ${target.userKey} on ${target.brandKey} for consent: serial ${reply.serial ?? '-'}`);
    return { ok: true, ...target, serial: reply.serial };
  }
}
