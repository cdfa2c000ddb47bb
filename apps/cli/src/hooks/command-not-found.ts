import type { Hook } from '@oclif/core';
import { closest, distance } from 'fastest-levenshtein';
import { EXIT } from '../lib/exit-codes';

/** The command meant by a mistyped one (`sned`, `gateway stat`), when one is close enough to guess. */
function guess(id: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const nearest = closest(id.toLowerCase(), [...known]);
  return distance(id.toLowerCase(), nearest) <= Math.max(2, Math.floor(id.length / 3)) ? nearest : undefined;
}

/** An unknown command is a usage error (exit 2), reported as JSON with --json like every other failure. */
const hook: Hook<'command_not_found'> = async function (options) {
  const shown = options.id.replaceAll(':', ' ');
  const meant = guess(options.id, options.config.commandIDs);
  const message = meant
    ? `unknown command "${shown}": did you mean "${meant.replaceAll(':', ' ')}"? \`brandwire --help\` lists the commands`
    : `unknown command "${shown}": \`brandwire --help\` lists the commands`;
  process.exitCode = EXIT.usage;
  if (options.argv?.includes('--json')) process.stdout.write(`${JSON.stringify({ ok: false, error: message, code: 'USAGE' })}\n`);
  else process.stderr.write(`Error: ${message}\n`);
  return Promise.resolve();
};

export default hook;
