import { boolean } from '@oclif/core/flags';
import { BrandwireCommand } from '../base-command';
import { clientFor } from '../lib/connect';
import { type LogoutResult, gatewayKeepsKeyNote, isUntold, runLogout } from '../lib/keys';

export default class Logout extends BrandwireCommand {
  static override summary = 'Revoke the stored key on the service and remove it from the config file';
  static override description = [
    'Finds the stored key\'s id (GET /api/agent/keys), revokes it (DELETE /api/agent/keys/{id}) and removes it from the config file; the endpoint, the default channel and the gateway settings stay. A key the service refuses already (revoked before) is removed too: --json tells `revoked: false`, `service: "already-refused"`. When the service cannot be told (out of reach, or another failure) the key stays stored and logout fails (exit 1), since a key below Admin could not revoke itself later without it; --force removes it anyway (exit 0, `service: "unreachable"` or `"failed"`, and stderr says it still works until it is revoked). When the revoke went out and no answer came (`service: "unanswered"`) the key may or may not be revoked: it stays stored the same way, and logout run again finds out (a key the service refuses already is removed). With no key stored there is nothing to do (exit 0, `service: "not-asked"`). A running gateway that relays is refused with the key from then on until `brandwire login` gives it a new one (or, started with BRANDWIRE_TOKEN, `brandwire gateway restart`): stderr says so, and --json tells its pid (`gateway: {pid}`, else null).',
    'A key from BRANDWIRE_TOKEN other than the stored one is a usage error (exit 2): logout changes neither the environment nor that key; unset BRANDWIRE_TOKEN to log out the stored key, or revoke the environment\'s key with `brandwire keys revoke <id>`.',
  ].join('\n\n');
  static override examples = ['<%= config.bin %> logout', '<%= config.bin %> logout --json', '<%= config.bin %> logout --force'];
  static override flags = {
    force: boolean({ description: 'remove the key from the config file even when the service cannot be told to revoke it' }),
  };

  async run(): Promise<LogoutResult> {
    const { flags } = await this.parse(Logout);
    const session = this.session();
    const result = await runLogout(session, clientFor, { force: flags.force });
    const name = result.name === null ? 'the key' : `the key "${result.name}"`;
    if (result.reason && isUntold(result.service)) {
      const untold =
        result.service === 'unanswered'
          ? `${name} may NOT be revoked: the revoke went out and ${result.reason.message}. If it is not, it works until it is revoked`
          : `${name} is NOT revoked: the service could not be told (${result.reason.message}). It works until it is revoked`;
      this.note(`Warning: ${untold}: with an Admin key, \`brandwire keys list\` shows its id and \`brandwire keys revoke <id>\` revokes it.`);
    }
    if (result.forgotten && session.tokenSource === 'env') this.note('BRANDWIRE_TOKEN holds the same key: unset it.');
    if (result.gateway) this.note(gatewayKeepsKeyNote(result.gateway));
    const service = (await import('@brandwire/client')).shownEndpoint(result.endpoint);
    await this.show(() => {
      switch (result.service) {
        case 'revoked':
          return `Revoked key ${result.id ?? ''} (${result.name ?? ''}) on ${service} and removed it from ${result.configPath}.`;
        case 'already-refused':
          return `The service at ${service} already refuses ${name} (revoked before, or not one of its keys): removed it from ${result.configPath}.`;
        case 'unreachable':
        case 'failed':
          return `Removed ${name} from ${result.configPath}; it is not revoked on the service.`;
        case 'unanswered':
          return `Removed ${name} from ${result.configPath}; whether the service revoked it is not known.`;
        case 'not-asked':
          return `No key is stored in ${result.configPath}: nothing to log out.`;
        default: {
          const unreachable: never = result.service;
          throw new Error(`unknown logout outcome ${String(unreachable)}`);
        }
      }
    });
    return result;
  }
}
