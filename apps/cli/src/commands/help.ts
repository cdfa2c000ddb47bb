import { Args, loadHelpClass } from '@oclif/core';
import { BrandwireCommand } from '../base-command';
import { usageError } from '../lib/cli-error';

export default class Help extends BrandwireCommand {
  static override summary = 'Show the help of the tool, a topic or a command (as --help does)';
  static override description = 'Help is text for people: with the global --json it is a usage error (exit 2), as `brandwire --json` is.';
  static override examples = ['<%= config.bin %> help', '<%= config.bin %> help send', '<%= config.bin %> help gateway start'];
  static override strict = false;
  static override args = { command: Args.string({ description: 'a topic or command, e.g. send or gateway start' }) };

  async run(): Promise<void> {
    const { argv } = await this.parse(Help);
    if (this.jsonEnabled()) throw usageError('`brandwire help` prints help for people and has no --json output: leave out --json');
    const asked = (argv as string[]).join(':');
    // oclif's own answer names the command by its id ("Command send:extra not found.")
    if (asked !== '' && !this.config.findCommand(asked) && !this.config.findTopic(asked)) {
      throw usageError(`no command or topic "${(argv as string[]).join(' ')}": \`brandwire --help\` lists the commands`);
    }
    const HelpClass = await loadHelpClass(this.config);
    await new HelpClass(this.config).showHelp(argv as string[]);
  }
}
