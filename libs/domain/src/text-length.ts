/**
 * Text limits count characters as people see them written: a character outside the Basic Multilingual Plane
 * (an emoji, a rare Hanja) is one character, though JavaScript strings hold it as two UTF-16 units.
 */
export function characterCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** Whether `text` has more than `max` characters; a text of at most `max` UTF-16 units is never counted. */
export function isLongerThan(text: string, max: number): boolean {
  return text.length > max && characterCount(text) > max;
}

/** The first `max` characters of `text`, never splitting a character in two. */
export function firstCharacters(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (let kept = 0; kept < max && end < text.length; kept++) {
    const unit = text.charCodeAt(end);
    const pair = unit >= 0xd800 && unit <= 0xdbff && end + 1 < text.length && text.charCodeAt(end + 1) >= 0xdc00 && text.charCodeAt(end + 1) <= 0xdfff;
    end += pair ? 2 : 1;
  }
  return text.slice(0, end);
}

/** The longest text bubble the messenger takes, in characters (a longer one is refused with -506). */
export const MAX_TEXT_CHARACTERS = 1_000;

/** The longest bot event an end with bot hands off to, in characters (a longer one is refused with -510). */
export const MAX_BOT_EVENT_CHARACTERS = 100;

// C0 controls but tab and newline, DEL, C1 controls, and the bidi embeddings, overrides and isolates
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** The text without the characters that act on a screen or reorder what is read instead of showing (tab and newline stay). */
export function withoutControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, '');
}

// C0 controls (tab and newline too), DEL, and C1 controls
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const IDENTIFIER_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/;

/** Whether an identifier (a customer key, a brand key, a bot event) holds a control character: such a key is refused, never stored. */
export function hasControlCharacter(text: string): boolean {
  return IDENTIFIER_CONTROLS.test(text);
}

/** The one message of that refusal, in the service and the sandbox messenger alike. */
export function controlCharactersMessage(field: string): string {
  return `${field} must not contain control characters`;
}
