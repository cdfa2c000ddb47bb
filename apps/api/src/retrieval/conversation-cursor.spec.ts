import { conversationCursor, parseConversationCursor } from './conversation-cursor';

describe('conversation export cursor', () => {
  it.each(['90000001', 's-10', '세션#1', 'a/b c'])('round-trips convId %s through an opaque URL-safe cursor', (convId) => {
    const cursor = conversationCursor(convId);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain(convId);
    expect(parseConversationCursor(cursor)).toBe(convId);
  });

  it.each([
    ['a convId given as is', '90000001'],
    ['base64 of something else', Buffer.from('hello').toString('base64url')],
    ['the prefix alone', Buffer.from('c1:').toString('base64url')],
    ['standard base64 padding', `${conversationCursor('s-1')}==`],
    ['characters outside base64url', 'abc+/def'],
    ['an empty string', ''],
    ['a non-canonical encoding', `${conversationCursor('s-10').slice(0, -1)}x`],
  ])('refuses %s', (_what, cursor) => {
    expect(parseConversationCursor(cursor)).toBeUndefined();
  });
});
