/** Words a POSIX shell takes as they are; anything else is single-quoted. */
const PLAIN = /^[\w@%+=:,./-]+$/;

/** One word as a person types it into a shell (bash, zsh, sh): single-quoted unless plain. */
export function shellWord(word: string): string {
  return PLAIN.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** A command line to paste into a shell. */
export function shellCommand(words: readonly string[]): string {
  return words.map(shellWord).join(' ');
}
