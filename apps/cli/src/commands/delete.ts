import type { DeleteResponse } from '@brandwire/client';
import { LOOKBACK_DEFAULT_S, LOOKBACK_MAX_S } from '@brandwire/domain';
import { integer, string } from '@oclif/core/flags';
import { BrandwireCommand } from '../base-command';
import { channelOf } from '../lib/channel';
import { CliError, usageError } from '../lib/cli-error';
import { connect } from '../lib/connect';
import { EXIT } from '../lib/exit-codes';
import { channelFlag, toFlag } from '../lib/flags';
import { requireOk } from '../lib/results';

/** The service's advice names its REST fields (withinSeconds, serial); here they are flags. */
function noTextMatch({ brandKey, userKey }: { brandKey: string; userKey: string }, within: number): CliError {
  const next = within < LOOKBACK_MAX_S ? `widen --within (up to ${LOOKBACK_MAX_S}) or pass --serial` : 'pass --serial (a message older than 24 hours cannot be deleted)';
  return new CliError('NOT_FOUND', `no message with exactly this text was sent to ${userKey} in the last ${within} seconds; ${next}`, EXIT.error, { status: 404 }, `\`brandwire rooms --channel ${brandKey} --to ${userKey}\` shows the messages with their serials`);
}

export type DeleteResult = DeleteResponse & { brandKey: string; userKey: string };

export default class Delete extends BrandwireCommand {
  static override summary = 'Delete a sent message (one bubble) within 24 hours of sending';
  static override description =
    '--serial deletes exactly that bubble (recommended). --text finds the most recent send with exactly that body within --within seconds (10 to 86400, default 180); with no match, widen --within or pass --serial.';
  static override examples = [
    '<%= config.bin %> delete --channel acme-kakao --to alice --serial bw-1732178400000-ab12',
    '<%= config.bin %> delete --channel acme-kakao --to alice --text "Wrong price, sorry" --within 600',
  ];
  static override flags = {
    channel: channelFlag(),
    to: toFlag(),
    serial: string({ description: 'serial of the bubble to delete', helpValue: '<serial>', exclusive: ['text'] }),
    text: string({ description: 'exact body of the message to delete', helpValue: '<body>', exclusive: ['serial'] }),
    within: integer({ description: 'with --text: how far back to look, in seconds (10 to 86400, default 180)', min: 10, max: 86400, dependsOn: ['text'], helpValue: '<seconds>' }),
  };

  async run(): Promise<DeleteResult> {
    const { flags } = await this.parse(Delete);
    if (!flags.serial && !flags.text) throw usageError('pass --serial <serial>, or --text <body> with an optional --within <seconds>');
    const session = this.session();
    const target = { brandKey: channelOf(flags.channel, session), userKey: flags.to };
    const client = await connect(session);
    const reply = await client
      .delete({ ...target, ...(flags.serial ? { serial: flags.serial } : { text: flags.text, withinSeconds: flags.within }) })
      .catch((error: unknown) => {
        if (flags.text && (error as { code?: string }).code === 'NOT_FOUND') throw noTextMatch(target, flags.within ?? LOOKBACK_DEFAULT_S);
        throw error;
      });
    requireOk(reply, target);
    const result = { ...reply, ...target };
    await this.show(() => `Deleted ${result.serial ?? 'the message'} for ${result.userKey} on ${result.brandKey}.`);
    return result;
  }
}
