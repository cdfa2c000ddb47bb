import { LaterCommand } from '../lib/later-command';

export default class Model extends LaterCommand {
  // own static: oclif reads strict from the command class itself, not from its parents
  static override strict = false;
  static override summary = 'List or select the AI model: list, set <id> (comes in a later version)';
  static override examples = ['<%= config.bin %> model list --json'];
}
