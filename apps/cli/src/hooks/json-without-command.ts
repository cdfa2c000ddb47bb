import type { Hook } from '@oclif/core';
import { EXIT } from '../lib/exit-codes';

/**
 * With --json, a topic without its command (`brandwire gateway --json`) or no command at all (`brandwire --json`)
 * is a usage error printed as JSON, like every other failure: oclif would print the help text for people.
 */
const hook: Hook<'init'> = async function ({ id, argv, config }) {
  const asked = id === '--json' ? [] : (id ?? '').split(':').filter(Boolean);
  const json = id === '--json' || argv.includes('--json');
  if (!json || argv.includes('--help') || argv.includes('-h')) return;
  if (asked.length > 0 && (config.findCommand(asked.join(':')) || !config.findTopic(asked.join(':')))) return;
  const prefix = asked.length > 0 ? `${asked.join(':')}:` : '';
  const commands = config.commandIDs
    .filter((c) => c.startsWith(prefix) && !c.slice(prefix.length).includes(':'))
    .map((c) => c.slice(prefix.length))
    .sort();
  const topic = asked.join(' ');
  const message = topic
    ? `"brandwire ${topic}" needs a command: ${commands.join(', ')}`
    : 'a command is needed: `brandwire --help` lists the commands';
  process.stdout.write(`${JSON.stringify({ ok: false, error: message, code: 'USAGE' })}\n`);
  this.exit(EXIT.usage);
  return Promise.resolve();
};

export default hook;
