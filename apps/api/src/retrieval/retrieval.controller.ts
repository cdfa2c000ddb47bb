import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../common/auth/principal';
import { RequiresScope } from '../common/auth/route-access';
import { ApiErrors, QUERY_ERRORS } from '../docs/api-errors';
import { ConversationExportService } from './conversation-export.service';
import { ConversationExportQueryDto, ConversationExportResponseDto } from './dto/conversation-export.dto';
import { ConversationQueryDto, ConversationsQueryDto, MessagesQueryDto, RoomsQueryDto } from './dto/retrieval-query.dto';
import { BrandConversationsDto, ConversationResponseDto, MessagesResponseDto, RoomsResponseDto } from './dto/retrieval-response.dto';
import { RetrievalService } from './retrieval.service';
import { ApiUserKeyParam, UserKeyParam } from '../common/http/user-key-param';

@ApiTags('retrieval')
@Controller('api/agent')
@RequiresScope('BrandRead')
export class RetrievalController {
  constructor(
    private readonly retrieval: RetrievalService,
    private readonly exports: ConversationExportService,
  ) {}

  @Get('rooms')
  @ApiOperation({ summary: 'Rooms with a consultation in progress' })
  @ApiOkResponse({ type: RoomsResponseDto })
  @ApiErrors(QUERY_ERRORS)
  rooms(@CurrentPrincipal() principal: Principal, @Query() query: RoomsQueryDto): Promise<RoomsResponseDto> {
    return this.retrieval.rooms(principal, query);
  }

  @Get('rooms/:userKey/messages')
  @ApiUserKeyParam()
  @ApiOperation({ summary: "A customer's recent journal items, newest first" })
  @ApiOkResponse({ type: MessagesResponseDto })
  @ApiErrors(QUERY_ERRORS)
  messages(@CurrentPrincipal() principal: Principal, @UserKeyParam() userKey: string, @Query() query: MessagesQueryDto): Promise<MessagesResponseDto> {
    return this.retrieval.messages(principal, userKey, query);
  }

  @Get('conversations')
  @ApiOperation({ summary: 'Conversation summaries per channel, most recent first' })
  @ApiOkResponse({ type: [BrandConversationsDto] })
  @ApiErrors(QUERY_ERRORS)
  conversations(@CurrentPrincipal() principal: Principal, @Query() query: ConversationsQueryDto): Promise<BrandConversationsDto[]> {
    return this.retrieval.conversations(principal, query);
  }

  @Get('conversations/export')
  @ApiOperation({
    summary: 'Whole conversations of a channel, page by page',
    description:
      'Every conversation of the channel with its lines, in convId order, up to `max` per page. Each item is exactly what ' +
      'GET /api/agent/conversation returns for it. Pass `next` as `after` for the following page; `next` is null on the last page. ' +
      'Conversations started while paging may fall before the cursor: read again to pick them up.',
  })
  @ApiOkResponse({ type: ConversationExportResponseDto })
  @ApiErrors(QUERY_ERRORS, { BAD_REQUEST: '`after` is not a cursor of this service, or `max` is outside 1 to 1000' })
  exportConversations(@CurrentPrincipal() principal: Principal, @Query() query: ConversationExportQueryDto): Promise<ConversationExportResponseDto> {
    return this.exports.page(principal, query);
  }

  @Get('conversation')
  @ApiOperation({ summary: 'One conversation with its lines' })
  @ApiOkResponse({ type: ConversationResponseDto })
  @ApiErrors(QUERY_ERRORS, { NO_CONV: 'no conversation with this convId on the channel' })
  conversation(@CurrentPrincipal() principal: Principal, @Query() query: ConversationQueryDto): Promise<ConversationResponseDto> {
    return this.retrieval.conversation(principal, query);
  }
}
