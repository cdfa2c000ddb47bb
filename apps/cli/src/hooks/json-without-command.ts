import type { Hook } from '@oclif/core';
import { EXIT } from '../lib/exit-codes';
import { colorEnabled, paint } from '../lib/output';

/**
 * A topic without its command (`brandwire gateway`, `brandwire upload --file a.png`) is a usage error (exit 2):
 * with --json printed as JSON like every other failure, for people as a line naming the topic's commands and the
 * topic's help on stderr (oclif would print the help on stdout and exit 0). With --json, no command at all
 * (`brandwire --json`) is one too; without it, a bare `brandwire` shows the help of the tool and exits 0.
 */
const hook: Hook<'init'> = async function ({ id, argv, config }) {
  const asked = id === '--json' ? [] : (id ?? '').split(':').filter(Boolean);
  const json = id === '--json' || argv.includes('--json');
  if (argv.includes('--help') || argv.includes('-h')) return;
  if (asked.length === 0 && !json) return;
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
  if (json) {
    process.stdout.write(`${JSON.stringify({ ok: false, error: message, code: 'USAGE' })}\n`);
  } else {
    process.stderr.write(`${paint('Error:', 'red', colorEnabled(process.stderr))} ${message}\n\n`);
    // loaded only here: this hook runs at every start
    const { loadHelpClass } = await import('@oclif/core');
    const HelpClass = await loadHelpClass(config);
    await new HelpClass(config, { ...config.pjson.oclif.helpOptions, sendToStderr: true }).showHelp([asked.join(':')]);
  }
  this.exit(EXIT.usage);
};

export default hook;
