import { MAX_MESSAGES_DEFAULT, isoWithOffset } from '@brandwire/domain';
import type { Store } from '@brandwire/store';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, STORE } from '../app/tokens';
import { BrandAccessService } from '../common/auth/brand-access.service';
import type { Principal } from '../common/auth/principal';
import { fail } from '../common/errors/envelope';
import type { Config } from '../config/config';
import {
  CONVERSATIONS_MAX_DEFAULT,
  type ConversationQueryDto,
  type ConversationsQueryDto,
  type MessagesQueryDto,
  ROOMS_MAX_DEFAULT,
  type RoomsQueryDto,
} from './dto/retrieval-query.dto';
import type { BrandConversationsDto, ConversationResponseDto, MessagesResponseDto, RoomsResponseDto } from './dto/retrieval-response.dto';
import { toConversationSummary, toLine, toMessageItem, toRoomSummary } from './retrieval.mapping';
import { RoomPageCache } from './room-page-cache';

/** Reads rooms, messages and conversations of the channels a key may see. Never billed. */
@Injectable()
export class RetrievalService {
  constructor(
    private readonly access: BrandAccessService,
    @Inject(STORE) private readonly store: Store,
    @Inject(CONFIG) private readonly config: Config,
    private readonly pages: RoomPageCache,
  ) {}

  async messages(principal: Principal, userKey: string, query: MessagesQueryDto): Promise<MessagesResponseDto> {
    const channel = await this.access.channelFor(principal, query.brand, 'brand');
    const max = query.max ?? MAX_MESSAGES_DEFAULT;
    const stamp = this.pages.stamp();
    const items = await this.store.journal.listMessages(channel.key, userKey, max, query.before);
    const answer: MessagesResponseDto = { ok: true, brand: channel.key, userKey, messages: items.map(toMessageItem) };
    // an empty room is cheap to read again, and any user key has one; pages further back are not kept
    if (items.length > 0 && query.before === undefined) this.pages.remember(channel.key, userKey, max, stamp, answer);
    return answer;
  }

  async rooms(principal: Principal, query: RoomsQueryDto): Promise<RoomsResponseDto> {
    const channel = await this.access.channelFor(principal, query.brand, 'brand');
    const rooms = await this.store.journal.listRooms(channel.key, { max: query.max ?? ROOMS_MAX_DEFAULT });
    return { ok: true, brand: channel.key, rooms: rooms.map(toRoomSummary) };
  }

  async conversations(principal: Principal, query: ConversationsQueryDto): Promise<BrandConversationsDto[]> {
    const channels = query.brand
      ? [await this.access.channelFor(principal, query.brand, 'brand')]
      : (await this.store.directory.listChannels()).filter((c) => principal.brandIds.includes(c.brandId));
    const max = query.max ?? CONVERSATIONS_MAX_DEFAULT;
    return Promise.all(
      channels.map(async (channel) => {
        const list = await this.store.journal.listConversations(channel.key, { max, ...(query.userKey ? { userKey: query.userKey } : {}) });
        return { brand: channel.key, conversations: list.map((c) => toConversationSummary(c, this.config.timeZone)) };
      }),
    );
  }

  async conversation(principal: Principal, query: ConversationQueryDto): Promise<ConversationResponseDto> {
    const channel = await this.access.channelFor(principal, query.brand, 'brand');
    const found = await this.store.journal.getConversation(channel.key, query.convId);
    if (!found) throw fail('NO_CONV', `no conversation "${query.convId}" on channel ${channel.key}`);
    const { conversation, items } = found;
    return {
      ok: true,
      brand: channel.key,
      convId: conversation.convId,
      userKey: conversation.userKey,
      seq: conversation.lastSeq,
      sessionId: conversation.sessionId,
      ended: conversation.ended,
      lines: items.map((item) => toLine(item, isoWithOffset(item.timestampUnixMs, this.config.timeZone))),
    };
  }
}
