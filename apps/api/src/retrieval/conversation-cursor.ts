/**
 * The opaque `next` cursor of the conversation export: the last convId of a page, versioned and base64url
 * encoded so that clients pass it back unchanged rather than build one.
 */
const PREFIX = 'c1:';
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function conversationCursor(convId: string): string {
  return Buffer.from(`${PREFIX}${convId}`, 'utf8').toString('base64url');
}

/** The convId a cursor stands for, or undefined when it is not a cursor this service gave out. */
export function parseConversationCursor(cursor: string): string | undefined {
  if (!BASE64URL.test(cursor)) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith(PREFIX) || text.length === PREFIX.length) return undefined;
  const convId = text.slice(PREFIX.length);
  // a cursor decodes loosely (stray bits, broken UTF-8): only the exact encoding of a convId is one
  return conversationCursor(convId) === cursor ? convId : undefined;
}
