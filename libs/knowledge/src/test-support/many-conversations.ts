import type { KnowledgeConversation } from '../types';
import { conversation, line } from './conversations';

/** `count` four-line conversations; every fifth asks for a refund, so that "refund" is a word full-text search ranks. */
export function interruptedBuildConversations(count: number): KnowledgeConversation[] {
  return Array.from({ length: count }, (_, n) => {
    const topic = n % 5 === 0 ? 'a refund for order' : 'the delivery of parcel';
    return conversation(
      `conv-${n}`,
      [
        line('customer', `I am asking about ${topic} ${n}`, 0),
        line('agent', `We are checking ${topic} ${n} now`, 1),
        line('customer', `Thank you, ticket ${n}`, 2),
        line('agent', `Done for ticket ${n}`, 3),
      ],
      { userKey: `user-${n % 7}` },
    );
  });
}
