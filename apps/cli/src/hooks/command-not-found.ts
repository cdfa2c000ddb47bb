import type { Hook } from '@oclif/core';
import { EXIT } from '../lib/exit-codes';

/** An unknown command is a usage error (exit 2), reported as JSON with --json like every other failure. */
const hook: Hook<'command_not_found'> = async function (options) {
  const shown = options.id.replaceAll(':', ' ');
  const message = `unknown command "${shown}": \`brandwire --help\` lists the commands`;
  process.exitCode = EXIT.usage;
  if (options.argv?.includes('--json')) process.stdout.write(`${JSON.stringify({ ok: false, error: message, code: 'USAGE' })}\n`);
  else process.stderr.write(`Error: ${message}\n`);
  return Promise.resolve();
};

export default hook;
