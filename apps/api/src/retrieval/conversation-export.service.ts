import type { ConversationRecord, ConversationLineRecord, Store } from '@brandwire/store';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, STORE } from '../app/tokens';
import { BrandAccessService } from '../common/auth/brand-access.service';
import type { Principal } from '../common/auth/principal';
import { fail } from '../common/errors/envelope';
import type { Config } from '../config/config';
import { conversationCursor, parseConversationCursor } from './conversation-cursor';
import { CURSOR_MESSAGE, type ConversationExportQueryDto, type ConversationExportResponseDto, EXPORT_MAX_DEFAULT } from './dto/conversation-export.dto';
import type { ConversationResponseDto } from './dto/retrieval-response.dto';
import { toLine } from './retrieval.mapping';
import { ZonedTimes } from './zoned-times';

/** Whole conversations of a channel in pages, for bulk readers such as `brandwire knowledge build`. Never billed. */
@Injectable()
export class ConversationExportService {
  private readonly times: ZonedTimes;

  constructor(
    private readonly access: BrandAccessService,
    @Inject(STORE) private readonly store: Store,
    @Inject(CONFIG) config: Config,
  ) {
    this.times = new ZonedTimes(config.timeZone);
  }

  async page(principal: Principal, query: ConversationExportQueryDto): Promise<ConversationExportResponseDto> {
    const channel = await this.access.channelFor(principal, query.brand, 'brand');
    const afterConvId = query.after === undefined ? undefined : parseConversationCursor(query.after);
    if (query.after !== undefined && afterConvId === undefined) throw fail('BAD_REQUEST', CURSOR_MESSAGE);
    const page = await this.store.conversationExport.page(channel.key, { max: query.max ?? EXPORT_MAX_DEFAULT, ...(afterConvId === undefined ? {} : { afterConvId }) });
    const conversations = page.conversations.map(({ conversation, lines }) => this.whole(channel.key, conversation, lines));
    const last = conversations.at(-1);
    return { ok: true, brand: channel.key, conversations, next: page.more && last ? conversationCursor(last.convId) : null };
  }

  /** The body of GET /api/agent/conversation for this conversation. */
  private whole(brand: string, conversation: ConversationRecord, lines: readonly ConversationLineRecord[]): ConversationResponseDto {
    return {
      ok: true,
      brand,
      convId: conversation.convId,
      userKey: conversation.userKey,
      seq: conversation.lastSeq,
      sessionId: conversation.sessionId,
      ended: conversation.ended,
      lines: lines.map((line) => toLine(line, this.times.iso(line.timestampUnixMs))),
    };
  }
}
