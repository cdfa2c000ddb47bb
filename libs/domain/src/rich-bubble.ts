/** The `chat_bubble_type`s a rich send may carry (the rich envelope's table; MSGR_CERT is refused as UNSUPPORTED_BUBBLE). */
export const RICH_BUBBLE_TYPES = ['TEXT', 'IMAGE', 'WIDE', 'ITEM_LIST', 'WIDE_ITEM_LIST', 'CAROUSEL_FEED', 'PERSONAL'] as const;

export type RichBubbleType = (typeof RICH_BUBBLE_TYPES)[number];

/** The JSON type of a value, as a message names it: `a string`, `a number`, `a list`, `an object`, `null`. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
