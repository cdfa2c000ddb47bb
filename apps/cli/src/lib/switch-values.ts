import { usageError } from './cli-error';

interface FlagShape {
  type: string;
  aliases?: string[];
  allowNo?: boolean;
}

/** The long names a switch (boolean flag) answers to: its name, its aliases, and --no-… when it allows that. */
function switchNames(flags: Record<string, FlagShape | undefined>): Set<string> {
  const names = new Set<string>();
  for (const [name, flag] of Object.entries(flags)) {
    if (flag?.type !== 'boolean') continue;
    for (const each of [name, ...(flag.aliases ?? [])]) {
      names.add(each);
      if (flag.allowNo) names.add(`no-${each}`);
    }
  }
  return names;
}

/**
 * Refuses `--switch=value` (a usage error naming the switch): oclif would take the value for an argument, reported
 * as "Unexpected argument: yes", or worse taken as the command's argument (`setup --dry-run=yes` as the key "yes").
 */
export function refuseSwitchValues(argv: readonly string[], flags: Record<string, FlagShape | undefined>): void {
  const switches = switchNames(flags);
  for (const word of argv) {
    if (word === '--') return;
    const match = /^--([^=]+)=(.*)$/s.exec(word);
    if (match && switches.has(match[1] as string)) {
      throw usageError(`--${match[1]} is a switch and takes no value: leave out "=${match[2]}"`, 'see --help for the flags and arguments');
    }
  }
}
