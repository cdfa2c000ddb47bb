import { JOURNAL_KINDS, type JournalKind, type LineRole } from '@brandwire/domain';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class MessageItemDto {
  @ApiProperty({ type: 'integer', description: 'journal sequence; equals seq in the inbound signal' }) seq!: number;
  @ApiProperty() userKey!: string;
  @ApiProperty() sessionId!: string;
  @ApiProperty({ enum: JOURNAL_KINDS }) kind!: JournalKind;
  @ApiProperty({ description: 'message body; customer attachments as "[type] <url>" lines' }) text!: string;
  @ApiProperty({ type: 'integer', description: 'time received, epoch milliseconds' }) timestampUnixMs!: number;
  @ApiPropertyOptional({ description: 'only on agent and deleted items' }) serial?: string;
  @ApiPropertyOptional({ description: 'true only on a deleted outbound message', enum: [true] }) deleted?: true;
}

export class MessagesResponseDto {
  @ApiProperty() ok!: true;
  @ApiProperty() brand!: string;
  @ApiProperty() userKey!: string;
  @ApiProperty({ type: [MessageItemDto], description: 'newest first' }) messages!: MessageItemDto[];
}

export class RoomSummaryDto {
  @ApiProperty() userKey!: string;
  @ApiProperty({ type: 'integer' }) lastSeq!: number;
  @ApiProperty() lastText!: string;
  @ApiProperty({ enum: JOURNAL_KINDS }) lastKind!: JournalKind;
  @ApiProperty({ type: 'integer', description: 'epoch milliseconds' }) lastTimestampUnixMs!: number;
  @ApiProperty({ type: 'integer' }) count!: number;
  @ApiProperty() ended!: boolean;
}

export class RoomsResponseDto {
  @ApiProperty() ok!: true;
  @ApiProperty() brand!: string;
  @ApiProperty({ type: [RoomSummaryDto], description: 'rooms with a consultation in progress, most recent first' }) rooms!: RoomSummaryDto[];
}

export class ConversationSummaryDto {
  @ApiProperty() convId!: string;
  @ApiProperty() userKey!: string;
  @ApiProperty({ type: 'integer', description: 'seq of the last item' }) seq!: number;
  @ApiProperty() sessionId!: string;
  @ApiProperty() ended!: boolean;
  @ApiProperty({ description: 'ISO 8601 with offset', example: '2026-11-21T17:00:00.000+09:00' }) lastActivity!: string;
  @ApiProperty({ description: 'last text' }) last!: string;
  @ApiProperty({ type: 'integer', description: 'number of items' }) count!: number;
}

export class BrandConversationsDto {
  @ApiProperty() brand!: string;
  @ApiProperty({ type: [ConversationSummaryDto] }) conversations!: ConversationSummaryDto[];
}

export class ConversationLineDto {
  @ApiProperty({ enum: ['customer', 'agent', 'bot', 'system'] }) role!: LineRole;
  @ApiProperty() text!: string;
  @ApiProperty({ description: 'ISO 8601 with offset' }) at!: string;
  @ApiPropertyOptional({ description: '`true` only on an agent line whose message was deleted (every bubble of it); absent otherwise' }) deleted?: true;
}

export class ConversationResponseDto {
  @ApiProperty() ok!: true;
  @ApiProperty() brand!: string;
  @ApiProperty() convId!: string;
  @ApiProperty() userKey!: string;
  @ApiProperty({ type: 'integer', description: 'seq of the last item' }) seq!: number;
  @ApiProperty() sessionId!: string;
  @ApiProperty() ended!: boolean;
  @ApiProperty({ type: [ConversationLineDto] }) lines!: ConversationLineDto[];
}
