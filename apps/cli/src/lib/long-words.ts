/** Longer words (a value given on the command line and repeated by a message) are cut to their start and length. */
const LONGEST_WORD = 200;
const KEPT = 80;

/** A message with each very long word cut, so that a 100,000-character value does not make a 100,000-character line. */
export function withLongWordsCut(message: string): string {
  return message.replace(new RegExp(`\\S{${LONGEST_WORD + 1},}`, 'g'), (word) => `${word.slice(0, KEPT)}… (${word.length} characters)`);
}
