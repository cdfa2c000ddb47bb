import type { SessionActionResponse } from '@brandwire/client';
import { string } from '@oclif/core/flags';
import { BrandwireCommand } from '../base-command';
import { channelOf } from '../lib/channel';
import { connect } from '../lib/connect';
import { channelFlag, nonBlank, toFlag } from '../lib/flags';
import { requireOk } from '../lib/results';

export default class EndWithBot extends BrandwireCommand {
  static override summary = 'End the consultation and hand the customer off to a bot scenario';
  static override description = 'Ending with only a greeting exists in the REST API only (POST /api/agent/end); the tool has end-with-bot.';
  static override examples = [
    '<%= config.bin %> end-with-bot --channel acme-kakao --to alice --event bot_menu',
    '<%= config.bin %> end-with-bot --channel acme-kakao --to alice --json',
  ];
  static override flags = {
    channel: channelFlag(),
    to: toFlag(),
    event: string({ description: 'the bot scenario event to hand off to', helpValue: '<event>', parse: nonBlank('the bot event') }),
  };

  async run(): Promise<SessionActionResponse & { brandKey: string; userKey: string }> {
    const { flags } = await this.parse(EndWithBot);
    const session = this.session();
    const target = { brandKey: channelOf(flags.channel, session), userKey: flags.to };
    const reply = requireOk(await (await connect(session)).endWithBot({ ...target, ...(flags.event ? { botEvent: flags.event } : {}) }), target);
    await this.show(() => endedText(reply, target, flags.event));
    return { ...reply, ...target };
  }
}

/** sessionId null: no consultation was in progress, nothing ended (an older service leaves sessionId out: it ended one). */
function endedText(reply: SessionActionResponse, target: { brandKey: string; userKey: string }, event: string | undefined): string {
  if (reply.sessionId === null) return `No consultation was in progress with ${target.userKey} on ${target.brandKey}: nothing was ended.`;
  return `Ended the consultation with ${target.userKey} on ${target.brandKey}${event ? `; the bot event ${event} takes over` : ''}.`;
}
