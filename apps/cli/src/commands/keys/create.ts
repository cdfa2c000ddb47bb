import type { CreatedKeyResponse } from '@brandwire/client';
import { SCOPES, type Scope } from '@brandwire/domain';
import { string as stringArg } from '@oclif/core/args';
import { string } from '@oclif/core/flags';
import { BrandwireCommand } from '../../base-command';
import { connect } from '../../lib/connect';
import { nonBlank } from '../../lib/flags';
import { brandsOfNewKey } from '../../lib/key-brands';

export default class KeysCreate extends BrandwireCommand {
  static override summary = 'Make an API key (Admin key): a scope up to Admin, for some or all of this key\'s brands; its token is shown once';
  static override description =
    'For an integration that cannot pair in a browser (`brandwire login`). The token is printed once, on stdout (in --json as `token`), and never again: the service keeps only its hash. Without --brand the new key gets every brand of this key; a brand this key was not given is FORBIDDEN. --brand takes brand ids (`brandwire whoami` lists them above their channels): a channel key there is a usage error naming its brand. `brandwire keys revoke <id>` revokes it.';
  static override examples = ['<%= config.bin %> keys create crm-sync --scope BrandWrite', '<%= config.bin %> keys create auditor --scope BrandRead --brand acme --json'];
  // ignoreStdin: a name is never read from a pipe
  static override args = { name: stringArg({ description: "the new key's name, as `keys list` shows it", required: true, ignoreStdin: true, parse: nonBlank("the new key's name") }) };
  static override flags = {
    scope: string({ description: `the new key's scope: ${SCOPES.join(', ')}`, options: [...SCOPES], required: true, helpValue: '<scope>' }),
    // non-greedy: one value per --brand, so the name may come after it
    brand: string({
      description: 'a brand id (not a channel key) for the new key; repeat for several (default: every brand of this key)',
      multiple: true,
      multipleNonGreedy: true,
      helpValue: '<id>',
      parse: nonBlank('the brand id'),
    }),
  };

  async run(): Promise<CreatedKeyResponse> {
    const { args, flags } = await this.parse(KeysCreate);
    const client = await connect(this.session());
    const brands = brandsOfNewKey(flags.brand, await client.me());
    const made = await client.createKey({ name: args.name, scope: flags.scope as Scope, brands });
    await this.show(() => `Made key ${made.id} (${made.name}, ${made.scope}, brands ${made.brands.join(', ')}). Its token, shown only now:\n${made.token}`);
    return made;
  }
}
