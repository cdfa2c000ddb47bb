import type { KeysResponse } from '@brandwire/client';
import { BrandwireCommand } from '../../base-command';
import { connect } from '../../lib/connect';
import { presentKeys } from '../../lib/present';

export default class KeysList extends BrandwireCommand {
  static override summary = 'List the API keys this key manages: an Admin key its own and those of its brands, any other key itself';
  static override description =
    'Shows id, name, scope, brands and creation time of each key, the one in use marked with *. Tokens are never shown: the service keeps only their hashes. `brandwire keys revoke <id>` revokes one.';
  static override examples = ['<%= config.bin %> keys list', '<%= config.bin %> keys list --json'];

  async run(): Promise<KeysResponse> {
    await this.parse(KeysList);
    const reply = await (await connect(this.session())).keys();
    await this.show(() => presentKeys(reply));
    return reply;
  }
}
