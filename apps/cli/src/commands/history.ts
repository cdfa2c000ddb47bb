import type { BrandConversations, ConversationResponse } from '@brandwire/client';
import { integer, string } from '@oclif/core/flags';
import { BrandwireCommand } from '../base-command';
import { usageError } from '../lib/cli-error';
import { connect } from '../lib/connect';
import { channelFlag, nonBlank, optionalToFlag } from '../lib/flags';
import { presentConversation, presentHistory } from '../lib/present';
import { onlyConversation } from '../lib/results';

export type HistoryResult = { ok: true; channels: BrandConversations[] } | ConversationResponse;

export default class History extends BrandwireCommand {
  static override summary = 'Consultation history: consultations in progress and completed, with their convId';
  static override description =
    'Lists the consultations of one channel, or of every channel the key may read when --channel is left out (the default channel stored by setup does not narrow the list). With --conv, shows one conversation line by line: on --channel, or, when it is left out, on whichever channel of the key has it (--to and --max, which narrow the list, are a usage error beside it).';
  static override examples = [
    '<%= config.bin %> history --channel acme-kakao',
    '<%= config.bin %> history --channel acme-kakao --to alice --max 5',
    '<%= config.bin %> history --channel acme-kakao --conv 1000001 --json',
    '<%= config.bin %> history --conv 1000001',
  ];
  static override flags = {
    channel: channelFlag('brand key of the channel (old name: --brand); every channel when left out'),
    to: optionalToFlag("only this customer's consultations (alias: --user)"),
    max: integer({ description: 'consultations per channel, most recent first', min: 1, helpValue: '<n>' }),
    conv: string({ description: 'show this conversation (convId) line by line; without --channel it is looked for on every channel', helpValue: '<convId>', parse: nonBlank('the convId') }),
  };

  async run(): Promise<HistoryResult> {
    const { flags } = await this.parse(History);
    // what narrows the list would be ignored beside --conv: refused rather than dropped in silence
    const listOnly = flags.conv === undefined ? undefined : flags.to !== undefined ? '--to' : flags.max !== undefined ? '--max' : undefined;
    if (listOnly) throw usageError(`${listOnly} cannot be combined with --conv: --conv shows one whole conversation, with its customer`, `leave out ${listOnly}, or --conv to list`);
    const session = this.session();
    const client = await connect(session);
    if (flags.conv) {
      const { findConversation } = await import('@brandwire/client');
      const conversation = flags.channel ? await client.conversation({ brand: flags.channel, convId: flags.conv }) : onlyConversation(flags.conv, await findConversation(client, flags.conv));
      await this.show(() => presentConversation(conversation));
      return conversation;
    }
    const channels = await client.conversations({ brand: flags.channel, userKey: flags.to, max: flags.max });
    await this.show(() => presentHistory(channels));
    return { ok: true, channels };
  }
}
