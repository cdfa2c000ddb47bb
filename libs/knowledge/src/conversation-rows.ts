/**
 * Turns one conversation into graph rows (pure). Turn n is line n (1-based) of the conversation, so a turn's id
 * `<convId>#<n>` stays the same when the conversation grows; system lines take a turn number but make no node.
 * When part of the conversation is already loaded, only rows that touch a new turn come out.
 */
import { isDeletionNotice, parseAttachments } from '@brandwire/domain';
import type { KnowledgeConversation } from './types';

export type CsvValue = string | number | boolean | null;

/** Where rows go: a node table name or a relation pair name (see schema.ts). */
export type RowSink = (stream: string, row: CsvValue[]) => void;

/** What the graph already holds of a conversation. */
export interface LoadedConversation {
  channel: string;
  lines: number;
  ended: boolean;
}

export interface RowContext {
  attachmentHost: string;
}

export function customerId(channel: string, userKey: string): string {
  return `${channel}/${userKey}`;
}

export function turnId(convId: string, turn: number): string {
  return `${convId}#${turn}`;
}

/** ISO 8601 with an offset (or Z), to the microsecond: Kuzu reads it as is into a TIMESTAMP (stored in UTC). */
const KUZU_READS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

/** A line's `at` as Kuzu can read it into a TIMESTAMP, or null when it is not a time. */
export function timestampOf(at: string): string | null {
  if (KUZU_READS.test(at)) return at;
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** The Conversation node's columns (schema order). It ended with its last line but for notices of later deletions. */
export function conversationRow(conv: KnowledgeConversation): CsvValue[] {
  const first = conv.lines[0];
  const last = conv.lines[conv.lines.length - 1];
  const lastTs = last === undefined ? null : timestampOf(last.at);
  const ending = conv.lines.findLast((line) => !isDeletionNotice(line)) ?? last;
  return [
    conv.convId,
    conv.brand,
    conv.userKey,
    conv.sessionId,
    conv.seq,
    conv.ended,
    first === undefined ? null : timestampOf(first.at),
    conv.ended && ending !== undefined ? timestampOf(ending.at) : null,
    lastTs,
    conv.lines.length,
  ];
}

function addAttachments(sink: RowSink, from: 'Inquiry' | 'Response', id: string, text: string, ctx: RowContext): number {
  if (!text.includes('[')) return 0;
  const found = parseAttachments(text, ctx.attachmentHost);
  found.forEach((a, i) => {
    const attachmentId = `${id}/${i + 1}`;
    sink('Attachment', [attachmentId, a.type, a.url, a.caption ?? null]);
    sink(`HAS_ATTACHMENT_${from}_Attachment`, [id, attachmentId]);
  });
  return found.length;
}

/** Turns already loaded (before `prior.lines`) whose agent or bot message has been deleted since, by id. */
export function withdrawnTurns(conv: KnowledgeConversation, prior: LoadedConversation): string[] {
  const ids: string[] = [];
  conv.lines.forEach((line, index) => {
    if (index < prior.lines && line.deleted === true && (line.role === 'agent' || line.role === 'bot')) ids.push(turnId(conv.convId, index + 1));
  });
  return ids;
}

/**
 * Which customer turns a response answers: those since the previous response (the last inquiry and the ones
 * sent in a row before it). A deleted message was withdrawn from the customer's chat and answers nothing.
 */
class AnswerTracker {
  private pending: number[] = [];
  private answered = false;

  customer(turn: number): void {
    if (this.answered) this.pending = [];
    this.answered = false;
    this.pending.push(turn);
  }

  /** The inquiry turns the response answers. */
  response(): readonly number[] {
    this.answered = true;
    return this.pending;
  }
}

function isResponse(line: KnowledgeConversation['lines'][number]): boolean {
  return (line.role === 'agent' || line.role === 'bot') && line.deleted !== true;
}

/** A relation between turns already loaded that a withdrawn response leaves to another. */
export interface Relink {
  convId: string;
  /** ANSWERED_BY rows: inquiry id, response id, turns between them */
  answeredBy: Array<[string, string, number]>;
  /** the response the ended conversation now ends with, if it ended at an earlier load */
  endedBy?: string;
}

/**
 * The ANSWERED_BY and ENDED relations of the turns loaded earlier, replayed without the withdrawn responses:
 * an inquiry whose answer was deleted is answered by the next response that remains, and an ended
 * conversation ends with its last remaining response. Only relations are added by a withdrawal, never
 * taken from a remaining response.
 */
export function relinkAfterWithdrawal(conv: KnowledgeConversation, prior: LoadedConversation): Relink {
  const tracker = new AnswerTracker();
  const answeredBy: Array<[string, string, number]> = [];
  let lastResponse: string | undefined;
  conv.lines.slice(0, prior.lines).forEach((line, index) => {
    const turn = index + 1;
    if (line.role === 'customer') tracker.customer(turn);
    if (!isResponse(line)) return;
    lastResponse = turnId(conv.convId, turn);
    for (const asked of tracker.response()) answeredBy.push([turnId(conv.convId, asked), lastResponse, turn - asked]);
  });
  return prior.ended && lastResponse !== undefined ? { convId: conv.convId, answeredBy, endedBy: lastResponse } : { convId: conv.convId, answeredBy };
}

/**
 * Emits the new turns of `conv` past `prior.lines` (all of them when `prior` is undefined), their attachments,
 * and the relations that touch them (ANSWERED_BY as AnswerTracker says), so earlier lines are replayed to
 * know which inquiries a new response answers. ENDED goes from the last response of a conversation that
 * has ended since the last load.
 */
export function emitTurns(conv: KnowledgeConversation, prior: LoadedConversation | undefined, ctx: RowContext, sink: RowSink): void {
  const from = prior?.lines ?? 0;
  const customer = customerId(conv.brand, conv.userKey);
  const tracker = new AnswerTracker();
  let lastResponse: string | undefined;
  conv.lines.forEach((line, index) => {
    const turn = index + 1;
    const isNew = index >= from;
    const id = turnId(conv.convId, turn);
    switch (line.role) {
      case 'customer':
        tracker.customer(turn);
        if (!isNew) return;
        sink('Inquiry', [id, conv.convId, turn, line.text, timestampOf(line.at)]);
        sink('HAS_TURN_Conversation_Inquiry', [conv.convId, id, turn]);
        sink('ASKED_Customer_Inquiry', [customer, id]);
        addAttachments(sink, 'Inquiry', id, line.text, ctx);
        return;
      case 'agent':
      case 'bot': {
        if (!isResponse(line)) return;
        const answers = tracker.response();
        lastResponse = id;
        if (!isNew) return;
        sink('Response', [id, conv.convId, turn, line.role, line.text, timestampOf(line.at)]);
        sink('HAS_TURN_Conversation_Response', [conv.convId, id, turn]);
        for (const asked of answers) sink('ANSWERED_BY_Inquiry_Response', [turnId(conv.convId, asked), id, turn - asked]);
        addAttachments(sink, 'Response', id, line.text, ctx);
        return;
      }
      case 'system':
        return;
      default: {
        // a role this version does not know (the API grew): like a system line, it makes no node
        const unknownRole: never = line.role;
        void unknownRole;
        return;
      }
    }
  });
  if (conv.ended && prior?.ended !== true && lastResponse !== undefined) sink('ENDED_Response_Conversation', [lastResponse, conv.convId]);
}
