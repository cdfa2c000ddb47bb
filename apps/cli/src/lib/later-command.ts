import { BrandwireCommand } from '../base-command';
import { CliError } from './cli-error';
import { EXIT } from './exit-codes';

/** A command of the spec that comes with a later version: it says so and fails (exit 1), it never pretends to work. */
export abstract class LaterCommand extends BrandwireCommand {
  async run(): Promise<never> {
    // Its subcommands and flags are not defined yet, so none is parsed; whatever was passed, nothing is done.
    this.parsed = true;
    return Promise.reject(new CliError('NOT_IMPLEMENTED', `\`brandwire ${this.id ?? ''}\` comes in a later version of the tool; nothing was done`, EXIT.error));
  }
}
