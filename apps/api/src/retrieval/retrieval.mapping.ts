import { isoWithOffset, lineRoleOf } from '@brandwire/domain';
import type { ConversationRecord, JournalItem, RoomRecord } from '@brandwire/store';
import type { ConversationLineDto, ConversationSummaryDto, MessageItemDto, RoomSummaryDto } from './dto/retrieval-response.dto';

/** Journal records in the spec's retrieval shapes. */
export function toMessageItem(item: JournalItem): MessageItemDto {
  const dto: MessageItemDto = {
    seq: item.seq,
    userKey: item.userKey,
    sessionId: item.sessionId,
    kind: item.kind,
    text: item.text,
    timestampUnixMs: item.timestampUnixMs,
  };
  if (item.serial !== null && (item.kind === 'agent' || item.kind === 'deleted')) dto.serial = item.serial;
  if (item.deleted && item.kind === 'agent') dto.deleted = true;
  return dto;
}

export function toRoomSummary(room: RoomRecord): RoomSummaryDto {
  return {
    userKey: room.userKey,
    lastSeq: room.lastSeq,
    lastText: room.lastText,
    lastKind: room.lastKind,
    lastTimestampUnixMs: room.lastTimestampUnixMs,
    count: room.count,
    ended: room.state !== 'in_progress',
  };
}

export function toConversationSummary(c: ConversationRecord, timeZone: string): ConversationSummaryDto {
  return {
    convId: c.convId,
    userKey: c.userKey,
    seq: c.lastSeq,
    sessionId: c.sessionId,
    ended: c.ended,
    lastActivity: isoWithOffset(c.lastTimestampUnixMs, timeZone),
    last: c.lastText,
    count: c.count,
  };
}

/** A journal item as a line of a conversation; `at` is its time as the caller shows it (ISO 8601 with offset). */
export function toLine(item: Pick<JournalItem, 'kind' | 'byBot' | 'text' | 'deleted'>, at: string): ConversationLineDto {
  const line: ConversationLineDto = { role: lineRoleOf(item.kind, item.byBot), text: item.text, at };
  if (item.deleted && item.kind === 'agent') line.deleted = true;
  return line;
}
