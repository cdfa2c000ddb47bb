import { string as stringArg } from '@oclif/core/args';
import { BrandwireCommand } from '../../base-command';
import { clientFor, connect } from '../../lib/connect';
import { nonBlank } from '../../lib/flags';
import { type KeyRevocation, gatewayKeepsKeyNote, revokeKey } from '../../lib/keys';

export default class KeysRevoke extends BrandwireCommand {
  static override summary = 'Revoke an API key for good: any key itself, an Admin key also a key of its brands';
  static override description = [
    'Requests with the key are refused (401) from then on. A key below Admin may revoke only itself (another: 403 FORBIDDEN); a key that is not among those `brandwire keys list` shows is NOT_FOUND. It asks for no confirmation.',
    'Revoking the key stored in the config file also removes it from there, as `brandwire logout` does: when it is the key in use, and when the key in use comes from BRANDWIRE_TOKEN and the stored one is revoked (its id is asked of the service with the stored key first). A key in BRANDWIRE_TOKEN stays in the environment (unset it). A running gateway using the forgotten key is named on stderr, with how to give it a new one.',
  ].join('\n\n');
  static override examples = ['<%= config.bin %> keys revoke key_3f9a0c1b2d4e5f60', '<%= config.bin %> keys revoke key_3f9a0c1b2d4e5f60 --json'];
  // ignoreStdin: an id is never read from a pipe
  static override args = { id: stringArg({ description: 'the key id, as `brandwire keys list` shows it', required: true, ignoreStdin: true, parse: nonBlank('the key id') }) };

  async run(): Promise<KeyRevocation> {
    const { args } = await this.parse(KeysRevoke);
    const session = this.session();
    const result = await revokeKey(await connect(session), session, clientFor, args.id);
    if (result.self && session.tokenSource === 'env') this.note('The revoked key is the one in BRANDWIRE_TOKEN: unset it.');
    if (result.gateway) this.note(gatewayKeepsKeyNote(result.gateway));
    await this.show(() => {
      const revoked = `Revoked key ${result.id} (${result.name}).`;
      if (result.forgotten && result.self) return `${revoked} It was the key this tool uses: removed it from ${session.configPath}.`;
      if (result.forgotten) return `${revoked} It was the key stored in ${session.configPath} (the key in use came from BRANDWIRE_TOKEN): removed it from there.`;
      return result.self ? `${revoked} It was the key in use: requests with it are refused from now on.` : revoked;
    });
    return result;
  }
}
