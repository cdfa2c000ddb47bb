import type { MeResponse } from '@brandwire/client';
import { BrandwireCommand } from '../base-command';
import { connect } from '../lib/connect';
import { presentMe } from '../lib/present';

export type WhoamiResult = MeResponse & { endpoint: string; channel: string | null };

export default class Whoami extends BrandwireCommand {
  static override summary = 'Show the key in use: its name, permissions, endpoint and channels by brand';
  static override examples = ['<%= config.bin %> whoami', '<%= config.bin %> whoami --json'];

  async run(): Promise<WhoamiResult> {
    await this.parse(Whoami);
    const session = this.session();
    const me = await (await connect(session)).me();
    const result = { ...me, endpoint: session.endpoint, channel: session.channel ?? null };
    await this.show(() => presentMe(result));
    return result;
  }
}
