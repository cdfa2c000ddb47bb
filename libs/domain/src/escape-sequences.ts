import { withoutControlCharacters } from './text-length';

// The 7-bit escape sequences of ECMA-48, as a terminal reads them, each taken out whole, first to last:
// - a control sequence (CSI): ESC [, parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, a final byte
//   0x40–0x7E (missing when the text ends first, or something else comes);
// - an operating system command (OSC), or a DCS, SOS, PM or APC string: ESC ], P, X, ^ or _ up to BEL, ST (ESC \
//   or U+009C), the next ESC (which starts a sequence of its own) or a line break, which stays: what a customer or
//   a model wrote after a stray introducer is kept;
// - any other ESC: intermediate bytes 0x21–0x2F and a final byte 0x30–0x7E (ESC c, ESC 7, ESC M, ESC ( B…); a
//   space after a stray ESC stays.
// The 8-bit introducers (U+009B, U+009D, …) start nothing: in a UTF-8 text they are mostly Latin-1 mojibake (‘ read
// as â\u0080\u0098), and withoutControlCharacters takes each out alone.
// eslint-disable-next-line no-control-regex -- escape sequences are made of control characters
const ESCAPE_SEQUENCES = /\u001b\[[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|\u001b[\]PX^_][^\u0007\u001b\u009c\n\r]*(?:\u0007|\u001b\\|\u009c)?|\u001b[\u0021-\u002f]*[\u0030-\u007e]?/g;

/**
 * The text without its escape sequences, each taken out whole (a colour's `ESC [31m` leaves no `[31m` behind, a
 * window title's `ESC ]0;…BEL` no title), then without any other control character (`withoutControlCharacters`).
 */
export function withoutEscapeSequences(text: string): string {
  return withoutControlCharacters(text.replace(ESCAPE_SEQUENCES, ''));
}
