import { Args, Command, loadHelpClass } from '@oclif/core';

export default class Help extends Command {
  static override summary = 'Show the help of the tool, a topic or a command (as --help does)';
  static override examples = ['<%= config.bin %> help', '<%= config.bin %> help send', '<%= config.bin %> help gateway start'];
  static override strict = false;
  static override args = { command: Args.string({ description: 'a topic or command, e.g. send or gateway start' }) };

  async run(): Promise<void> {
    const { argv } = await this.parse(Help);
    const HelpClass = await loadHelpClass(this.config);
    await new HelpClass(this.config).showHelp(argv as string[]);
  }
}
