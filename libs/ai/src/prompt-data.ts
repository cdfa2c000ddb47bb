/**
 * A text from outside (what a customer wrote, a customer key) as a value in a tagged data block of a prompt: a JSON
 * string, so it stays on its one line (its newlines shown as \n) and cannot pass for a line of the block (a faked
 * `[time] agent: …`), with `<` and `>` escaped too, so it cannot close the block's tag or open another.
 */
export function promptValue(text: string): string {
  // JSON.stringify leaves these as they are: the tag's angle brackets, and line breaks other than \r and \n
  return JSON.stringify(text).replace(/[<>\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
