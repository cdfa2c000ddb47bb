/**
 * Text from customers and services is shown, never obeyed: a control character could clear the screen, retitle
 * the window or move the cursor over what was printed before, and a bidi override could reorder what is read.
 */

// C0 controls but tab and newline, DEL, C1 controls, and the bidi embeddings, overrides and isolates: the set of
// the domain's withoutControlCharacters, kept here because loading @brandwire/domain would add ~15 ms to every command
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// the colour sequences paint() writes
// eslint-disable-next-line no-control-regex -- they start with ESC
const COLOUR = /\u001b\[\d{1,2}m/g;

function visible(char: string): string {
  const code = char.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code); // ␛ ␍ ␇ …
  if (code === 0x7f) return '\u2421'; // ␡
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Every control character shown as a visible sign; for text that holds none of our own colours. */
export function shownControls(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** Text to print on a terminal: our colour sequences kept, every other control character shown as a sign. */
export function safeForTerminal(text: string): string {
  let out = '';
  let from = 0;
  for (const match of text.matchAll(COLOUR)) {
    out += shownControls(text.slice(from, match.index)) + match[0];
    from = match.index + match[0].length;
  }
  return out + shownControls(text.slice(from));
}
