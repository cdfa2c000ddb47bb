import { LaterCommand } from '../lib/later-command';

export default class Gateway extends LaterCommand {
  // own static: oclif reads strict from the command class itself, not from its parents
  static override strict = false;
  static override summary = 'Outbound gateway daemon: start, stop, restart, status (comes in a later version)';
  static override examples = ['<%= config.bin %> gateway status --json'];
}
