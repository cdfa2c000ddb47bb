/**
 * Words a POSIX shell takes as they are; anything else is single-quoted. `~` is not among them (a leading one is
 * the home folder), and neither is a leading `=` (zsh reads `=word` as the path of the command word).
 */
const PLAIN = /^[\w@%+:,./-][\w@%+=:,./-]*$/;

/** One word as a person types it into a shell (bash, zsh, sh): single-quoted unless plain. */
export function shellWord(word: string): string {
  return PLAIN.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** A command line to paste into a shell. */
export function shellCommand(words: readonly string[]): string {
  return words.map(shellWord).join(' ');
}
