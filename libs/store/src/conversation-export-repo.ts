import type { JournalKind } from '@brandwire/domain';
import type { Kysely } from 'kysely';
import { type ConversationRecord, toConversation } from './journal-records';
import type { Database } from './schema';

/** A journal item as a line of a whole conversation: only what a line shows. */
export interface ConversationLineRecord {
  seq: number;
  kind: JournalKind;
  byBot: boolean;
  text: string;
  timestampUnixMs: number;
  /** an agent item whose every bubble was deleted */
  deleted: boolean;
}

export interface ExportedConversation {
  conversation: ConversationRecord;
  /** oldest first */
  lines: ConversationLineRecord[];
}

export interface ConversationPage {
  conversations: ExportedConversation[];
  /** true when conversations after the last one of this page exist */
  more: boolean;
}

/**
 * Whole conversations of a channel in pages, for bulk readers (the knowledge graph build). Keyset paging in
 * convId order over the conversations' primary key: a page is two queries whatever its size, one for the
 * conversations and one for all their lines.
 */
export class ConversationExportRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Up to `max` conversations with a convId after `afterConvId` (from the first when undefined), in convId order. */
  async page(channelKey: string, options: { max: number; afterConvId?: string }): Promise<ConversationPage> {
    let query = this.db.selectFrom('conversations').selectAll().where('channel_key', '=', channelKey);
    if (options.afterConvId !== undefined) query = query.where('conv_id', '>', options.afterConvId);
    const rows = await query.orderBy('conv_id').limit(options.max + 1).execute();
    const more = rows.length > options.max;
    const conversations = rows.slice(0, options.max).map(toConversation);
    if (conversations.length === 0) return { conversations: [], more };

    const items = await this.db
      .selectFrom('journal')
      .select(['seq', 'user_key', 'session_id', 'kind', 'text', 'ts_ms', 'by_bot', 'deleted'])
      .where('channel_key', '=', channelKey)
      .where(
        'session_id',
        'in',
        conversations.map((c) => c.sessionId),
      )
      .orderBy('session_id')
      .orderBy('seq')
      .execute();
    const linesOf = new Map<string, ConversationLineRecord[]>(conversations.map((c) => [lineKey(c.sessionId, c.userKey), []]));
    for (const item of items) {
      // the same filter as one conversation's read: its session and its customer
      linesOf.get(lineKey(item.session_id, item.user_key))?.push({
        seq: Number(item.seq),
        kind: item.kind as JournalKind,
        byBot: item.by_bot === 1,
        text: item.text,
        timestampUnixMs: Number(item.ts_ms),
        deleted: item.deleted === 1,
      });
    }
    return { conversations: conversations.map((conversation) => ({ conversation, lines: linesOf.get(lineKey(conversation.sessionId, conversation.userKey)) ?? [] })), more };
  }
}

function lineKey(sessionId: string, userKey: string): string {
  return `${sessionId}\u0000${userKey}`;
}
