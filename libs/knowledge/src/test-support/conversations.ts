import type { ConversationLine } from '@brandwire/domain';
import type { KnowledgeConversation } from '../types';

export const CDN = 'cdn.brandwire.test';

/** Line `n` of a test conversation, one minute apart from 10:00 KST. */
export function line(role: ConversationLine['role'], text: string, minute: number): ConversationLine {
  const mm = String(minute).padStart(2, '0');
  return { role, text, at: `2026-11-20T10:${mm}:00.000+09:00` };
}

export function conversation(convId: string, lines: ConversationLine[], extra: Partial<KnowledgeConversation> = {}): KnowledgeConversation {
  return { brand: 'brand-a', convId, userKey: 'user-1', seq: lines.length, sessionId: `s-${convId}`, ended: false, lines, ...extra };
}

/** A parcel consultation with a photo bundle, answered and ended by an agent. */
export function parcelConversation(): KnowledgeConversation {
  return conversation(
    'conv-1',
    [
      line('customer', 'My parcel did not arrive yet', 0),
      line('customer', `[photo] https://${CDN}/a.jpg the torn box\n[photo] https://${CDN}/b.jpg\n[file] https://elsewhere.test/x.pdf`, 1),
      line('agent', 'Sorry about the parcel, we will resend it today', 2),
      line('bot', 'Anything else?', 3),
      line('system', 'consultation ended', 4),
    ],
    { ended: true, seq: 5 },
  );
}

/** A refund consultation still in progress. */
export function refundConversation(): KnowledgeConversation {
  return conversation('conv-2', [line('customer', 'I want a refund for my card payment', 10), line('agent', 'The refund takes three business days', 11)], {
    userKey: 'user-2',
  });
}

export async function* stream<T>(items: readonly T[]): AsyncIterable<T> {
  for (const item of items) {
    await Promise.resolve();
    yield item;
  }
}
