import { randomUUID } from 'node:crypto';
import { string } from '@oclif/core/flags';
import { BrandwireCommand } from '../base-command';
import { channelOf } from '../lib/channel';
import { connect } from '../lib/connect';
import { EXIT } from '../lib/exit-codes';
import { channelFlag, idempotencyKeyFlag, nonBlank, toFlag } from '../lib/flags';
import { type PartlyDone, type SendResult, partlyDone, sendMessage } from '../lib/send-message';
import { sendTimedOut } from '../lib/send-timeout';

export default class Send extends BrandwireCommand {
  static override summary = 'Send text, a rich message or attachments to a customer';
  static override description =
    'With --file the files are delivered directly (jpg, png and gif images as image bubbles, told by their content or else by their extension (a PNG without one is still an image; a text named .png is refused as no image); other formats as file bubbles) and --text goes into the first bubble; when some of them could not be delivered the exit code is 3, and --json prints { ok: false, error, code: "PARTLY_DONE", brandKey, userKey, serial, results } with results naming them. --rich-json takes a file with the rich envelope; chat_bubble_type is required. Prints { ok, brandKey, userKey, serial } with --json. Every send carries an Idempotency-Key (--idempotency-key, else a new one): when no answer comes in time the send may have been delivered, and the failure (code TIMEOUT) names the key and the repeat that is safe.';
  static override examples = [
    '<%= config.bin %> send --channel acme-kakao --to alice --text "Your order left today."',
    '<%= config.bin %> send --channel acme-kakao --to alice --rich-json card.json',
    '<%= config.bin %> send --channel acme-kakao --to alice --file receipt.png --file terms.pdf --text "Here you are" --image-style plain',
    '<%= config.bin %> send --channel acme-kakao --to alice --text "Your order left today." --idempotency-key order-1042-shipped',
  ];
  static override flags = {
    channel: channelFlag(),
    to: toFlag(),
    text: string({ description: 'the message text (with --file: the text of the first bubble)', helpValue: '<text>', parse: nonBlank('the message text') }),
    'rich-json': string({ description: 'file with the rich envelope (JSON; "-" reads stdin)', helpValue: '<file>' }),
    file: string({ description: 'a file to deliver; repeat for several', multiple: true, helpValue: '<path>' }),
    'image-style': string({ description: 'how --file images are shown: rich (card with caption, default) or plain (photo)', options: ['rich', 'plain'] }),
    'idempotency-key': idempotencyKeyFlag(),
  };

  async run(): Promise<SendResult | PartlyDone> {
    const { flags } = await this.parse(Send);
    const session = this.session();
    const brandKey = channelOf(flags.channel, session);
    const idempotencyKey = flags['idempotency-key'] ?? randomUUID();
    const input = { brandKey, userKey: flags.to, text: flags.text, richJson: flags['rich-json'], files: flags.file, imageStyle: flags['image-style'] as 'rich' | 'plain' | undefined };
    // the same command line with the key it was sent with: what repeats it safely
    const repeat = ['brandwire', 'send', ...this.argv, ...(flags['idempotency-key'] === undefined ? ['--idempotency-key', idempotencyKey] : [])];
    const result = await sendMessage(await connect(session), input, idempotencyKey).catch((error: unknown) => {
      throw sendTimedOut(error, { brandKey, userKey: flags.to, idempotencyKey, repeat });
    });
    await this.show(() => {
      const lines = [`Sent to ${result.userKey} on ${result.brandKey}: serial ${result.serial ?? '-'}`];
      for (const item of result.results ?? []) lines.push(`  ${item.kind}${item.file === undefined ? '' : ` ${item.file}`}: ${item.ok ? item.serial : `failed (${item.code}) ${item.message ?? ''}`}`);
      return lines.join('\n');
    });
    const partly = partlyDone(result);
    if (!partly) return result;
    process.exitCode = EXIT.partly;
    // with --json the error line says it; for people on stderr
    if (!this.jsonEnabled()) this.note(partly.error);
    return partly;
  }
}
