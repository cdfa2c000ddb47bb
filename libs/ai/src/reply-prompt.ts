import { MAX_TEXT_CHARACTERS, firstCharacters, isLongerThan, withoutEscapeSequences } from '@brandwire/domain';
import type { ChatTurn } from './complete';

/** A room's message item (GET /api/agent/rooms/{userKey}/messages), as much of it as a prompt reads. */
export interface RoomItem {
  seq: number;
  sessionId: string;
  kind: string;
  text: string;
  deleted?: boolean;
}

/** What the model answers when it should not answer: an agent takes over. */
export const HANDOFF = 'HANDOFF';

/** The model's instructions for answering a customer of `brand`, with the brand's own after them. */
export function replyInstructions(brand: string, instructions: string | undefined): string {
  return [
    `You are a customer-support agent answering a customer of the brand channel "${brand}" in a messenger consultation chat.`,
    'Write the next reply to the customer: in their language, friendly and brief, as plain text without Markdown.',
    `Never promise refunds, prices, dates or anything else you cannot see in this conversation or in the brand's instructions. If you cannot answer reliably, or the customer asks for a person, answer exactly ${HANDOFF} and nothing else.`,
    'Lines such as "[photo] https://…" are the customer\'s attachments, which you cannot open.',
    ...(instructions ? [`The brand's instructions:\n${instructions}`] : []),
  ].join('\n');
}

/**
 * The consultation up to the message to answer, as the model's turns: the customer's messages as the user's, the
 * agents' sends as the assistant's, oldest first, one turn per run of the same side, starting with the customer.
 */
export function conversationTurns(newestFirst: readonly RoomItem[], answering: RoomItem): ChatTurn[] {
  const turns: ChatTurn[] = [];
  for (const item of [...newestFirst].reverse()) {
    if (item.sessionId !== answering.sessionId || item.seq > answering.seq || item.deleted) continue;
    const role = item.kind === 'message' ? 'user' : item.kind === 'agent' ? 'assistant' : undefined;
    if (role === undefined || item.text === '') continue;
    if (turns.length === 0 && role === 'assistant') continue;
    const last = turns.at(-1);
    if (last?.role === role) last.content = `${last.content}\n${item.text}`;
    else turns.push({ role, content: item.text });
  }
  return turns;
}

/**
 * The model's answer as a text for the customer: no escape sequence (taken out whole) nor other control character or
 * bidi override (they are not the model's to send), at most the messenger's length limit, cut at a word where it can.
 */
export function replyText(answer: string): string {
  const text = withoutEscapeSequences(answer).trim();
  if (!isLongerThan(text, MAX_TEXT_CHARACTERS)) return text;
  const cut = firstCharacters(text, MAX_TEXT_CHARACTERS - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > cut.length * 0.8 ? cut.slice(0, space) : cut}…`;
}

/** Whether the model declined to answer. */
export function isHandoff(answer: string): boolean {
  return answer.trim().replace(/[.!"'`*]/g, '').toUpperCase() === HANDOFF;
}
