import { withoutControlCharacters } from './text-length';

// The escape sequences of ECMA-48, as a terminal reads them, each taken out whole, first to last:
// - a control sequence (CSI): ESC [ or U+009B, parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, a final byte
//   0x40–0x7E (missing when the text ends first, or something else comes);
// - an operating system command (OSC): ESC ] or U+009D up to BEL, ST (ESC \ or U+009C) or the next ESC, which
//   starts a sequence of its own; with none of these, up to the end of the text;
// - a DCS, SOS, PM or APC string: ESC P, X, ^ or _ (or U+0090, U+0098, U+009E, U+009F) up to ST or the next ESC;
// - any other ESC: intermediate bytes 0x20–0x2F and a final byte 0x30–0x7E (ESC c, ESC 7, ESC M, ESC ( B…).
// eslint-disable-next-line no-control-regex -- escape sequences are made of control characters
const ESCAPE_SEQUENCES = /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|(?:\u001b[PX^_]|[\u0090\u0098\u009e\u009f])[^\u001b\u009c]*(?:\u001b\\|\u009c)?|\u001b[\u0020-\u002f]*[\u0030-\u007e]?/g;

/**
 * The text without its escape sequences, each taken out whole (a colour's `ESC [31m` leaves no `[31m` behind, a
 * window title's `ESC ]0;…BEL` no title), then without any other control character (`withoutControlCharacters`).
 */
export function withoutEscapeSequences(text: string): string {
  return withoutControlCharacters(text.replace(ESCAPE_SEQUENCES, ''));
}
