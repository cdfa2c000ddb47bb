import { LaterCommand } from '../lib/later-command';

export default class Chatbot extends LaterCommand {
  // own static: oclif reads strict from the command class itself, not from its parents
  static override strict = false;
  static override summary = 'Interactive AI assistance; needs setup and model first (comes in a later version)';
  static override examples = ['<%= config.bin %> chatbot --json'];
}
