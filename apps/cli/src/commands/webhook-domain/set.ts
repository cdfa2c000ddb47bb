import type { WebhookSettings } from '@brandwire/client';
import { CLIError } from '@oclif/core/errors';
import { boolean, string } from '@oclif/core/flags';
import { BrandwireCommand } from '../../base-command';
import { channelOf } from '../../lib/channel';
import { connect } from '../../lib/connect';
import { channelFlag, nonBlank } from '../../lib/flags';
import { shownWebhook } from '../../lib/results';

const blankUrl = nonBlank('the webhook URL');

/** The URL's form is checked here, a usage error naming --url; which hosts may receive the signals is the service's rule. */
async function webhookUrl(value: string): Promise<string> {
  await blankUrl(value);
  let protocol: string | undefined;
  try {
    protocol = new URL(value).protocol;
  } catch {
    throw new CLIError(`the webhook URL must be a URL such as https://hooks.example.com/brandwire, got "${value}"`);
  }
  if (protocol !== 'https:' && protocol !== 'http:') throw new CLIError(`the webhook URL must be an https URL, got one with ${protocol}`);
  return value;
}

export default class WebhookDomainSet extends BrandwireCommand {
  static override summary = "Set the channel's inbound domain: the webhook URL that receives the signals (Admin key)";
  static override description = 'Needs an Admin key; a BrandWrite key can only read it (403 FORBIDDEN). Shows the signing secret of the connected webhook (as --json gives it); none once it is disconnected.';
  static override examples = [
    '<%= config.bin %> webhook-domain set --channel acme-kakao --url https://hooks.example.com/brandwire',
    '<%= config.bin %> webhook-domain set --channel acme-kakao --none',
  ];
  static override flags = {
    channel: channelFlag(),
    url: string({ description: 'the https URL that receives the signals', helpValue: '<url>', exactlyOne: ['url', 'none'], parse: webhookUrl }),
    none: boolean({ description: 'disconnect the webhook: the signals are no longer delivered', exactlyOne: ['url', 'none'] }),
  };

  async run(): Promise<WebhookSettings> {
    const { flags } = await this.parse(WebhookDomainSet);
    const session = this.session();
    const reply = shownWebhook(await (await connect(session)).setWebhook({ brandKey: channelOf(flags.channel, session), url: flags.none ? null : (flags.url ?? null) }));
    await this.show(() => `The signals of ${reply.brand} now go to ${reply.url ?? 'nowhere'}.${reply.secret ? `\nsigning secret: ${reply.secret}` : ''}`);
    return reply;
  }
}
