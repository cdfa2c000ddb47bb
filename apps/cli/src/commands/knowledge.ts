import { LaterCommand } from '../lib/later-command';

export default class Knowledge extends LaterCommand {
  // own static: oclif reads strict from the command class itself, not from its parents
  static override strict = false;
  static override summary = 'Consultation knowledge graph: status, install, build, search, query, view (comes in a later version)';
  static override examples = ['<%= config.bin %> knowledge status --json'];
}
