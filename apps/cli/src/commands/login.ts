import { setTimeout as sleep } from 'node:timers/promises';
import { boolean, string } from '@oclif/core/flags';
import { BrandwireCommand } from '../base-command';
import { checkEndpoint, clientFor, sessionEndpoint } from '../lib/connect';
import { deviceLogin } from '../lib/device-login';
import { channelFlag } from '../lib/flags';
import { colorEnabled, fields, paint } from '../lib/output';
import { type SetupResult, runSetup } from '../lib/setup-flow';

export default class Login extends BrandwireCommand {
  static override summary = 'Get and store a key by pairing this tool in the browser (OAuth 2.0 device authorization)';
  static override description = [
    'Shows a code and opens the pairing page of the service, where a person with an Admin key checks the code and picks the new key\'s scope and brands. The tool polls until the pairing is approved, then stores the key as setup does.',
    'With --console the browser is not opened: open the printed URL on any device. The URL and code go to stderr, so --json output stays one line on stdout.',
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> login --endpoint https://brandwire.example.com',
    '<%= config.bin %> login --console --channel acme-kakao --json',
  ];
  static override flags = {
    console: boolean({ description: 'print the URL and the code instead of opening the browser' }),
    endpoint: string({ description: 'service URL (default: the stored one, or http://127.0.0.1:8080)', helpValue: '<url>' }),
    channel: channelFlag('default channel (brand key) to store (old name: --brand)'),
  };

  async run(): Promise<SetupResult> {
    const { flags } = await this.parse(Login);
    const session = this.session();
    const endpoint = flags.endpoint === undefined ? await sessionEndpoint(session) : await checkEndpoint(flags.endpoint);
    const client = await clientFor(endpoint, undefined);
    const bold = (text: string) => paint(text, 'bold', colorEnabled(process.stderr));
    const token = await deviceLogin({
      requestDeviceCode: () => client.requestDeviceCode(),
      pollDeviceToken: (code) => client.pollDeviceToken(code),
      tell: (code) =>
        this.note(`To pair this tool, open ${bold(code.verification_uri_complete)}\nand check that it shows the code ${bold(code.user_code)} (valid for ${Math.round(code.expires_in / 60)} minutes).\nWaiting for the approval…`),
      ...(flags.console ? {} : { openBrowser: (url: string) => this.openBrowser(url) }),
      sleep: (ms) => sleep(ms),
      now: () => Date.now(),
    });
    const result = await runSetup({ key: token.access_token, endpoint, channel: flags.channel, dryRun: false, gateway: {}, prompter: undefined }, session);
    await this.show(() =>
      [`Paired. Stored the new key in ${result.configPath}.`, fields([['name', result.name], ['scope', result.scope], ['endpoint', result.endpoint], ['default channel', result.channel ?? 'none']])].join('\n'),
    );
    return result;
  }

  private async openBrowser(url: string): Promise<boolean> {
    try {
      const { default: open } = await import('open');
      const child = await open(url);
      child.on('error', () => this.note('Could not open a browser: open the URL above yourself.'));
      return true;
    } catch {
      this.note('Could not open a browser: open the URL above yourself.');
      return false;
    }
  }
}
