import type { Hook } from '@oclif/core';
import { closest, distance } from 'fastest-levenshtein';
import { EXIT } from '../lib/exit-codes';

/** The command meant by a mistyped one (`sned`, `gateway stat`), when one is close enough to guess. */
function guess(id: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const nearest = closest(id.toLowerCase(), [...known]);
  return distance(id.toLowerCase(), nearest) <= Math.max(2, Math.floor(id.length / 3)) ? nearest : undefined;
}

/** The command an id starts with when the rest are words it was given (`whoami extra`): the longest that exists. */
function commandBefore(id: string, known: readonly string[]): { command: string; rest: string } | undefined {
  const parts = id.split(':');
  for (let n = parts.length - 1; n > 0; n--) {
    const command = parts.slice(0, n).join(':');
    if (known.includes(command)) return { command: command.replaceAll(':', ' '), rest: parts.slice(n).join(' ') };
  }
  return undefined;
}

/**
 * Commands a person may expect that the tool leaves to the REST API on purpose (spec, command rule 2): what to use
 * instead, rather than a guess at a command with a similar name.
 */
const REST_ONLY: ReadonlyMap<string, string> = new Map([
  ['end', 'the tool ends a consultation with `brandwire end-with-bot` (it hands the customer to a bot scenario); a plain end, with only a greeting, is POST /api/agent/end in the REST API'],
]);

function messageFor(id: string, known: readonly string[]): string {
  const restOnly = REST_ONLY.get(id);
  if (restOnly !== undefined) return restOnly;
  const shown = id.replaceAll(':', ' ');
  const given = commandBefore(id, known);
  if (given) return `"brandwire ${given.command}" takes no argument "${given.rest}": \`brandwire ${given.command} --help\` shows what it takes`;
  const meant = guess(id, known);
  return meant
    ? `unknown command "${shown}": did you mean "${meant.replaceAll(':', ' ')}"? \`brandwire --help\` lists the commands`
    : `unknown command "${shown}": \`brandwire --help\` lists the commands`;
}

/** An unknown command is a usage error (exit 2), reported as JSON with --json like every other failure. */
const hook: Hook<'command_not_found'> = async function (options) {
  const message = messageFor(options.id, options.config.commandIDs);
  process.exitCode = EXIT.usage;
  if (options.argv?.includes('--json')) process.stdout.write(`${JSON.stringify({ ok: false, error: message, code: 'USAGE' })}\n`);
  else process.stderr.write(`Error: ${message}\n`);
  return Promise.resolve();
};

export default hook;
