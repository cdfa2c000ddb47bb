import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../common/auth/principal';
import { RequiresScope } from '../common/auth/route-access';
import { ConversationQueryDto, ConversationsQueryDto, MessagesQueryDto, RoomsQueryDto } from './dto/retrieval-query.dto';
import { BrandConversationsDto, ConversationResponseDto, MessagesResponseDto, RoomsResponseDto } from './dto/retrieval-response.dto';
import { RetrievalService } from './retrieval.service';

@ApiTags('retrieval')
@Controller('api/agent')
@RequiresScope('BrandRead')
export class RetrievalController {
  constructor(private readonly retrieval: RetrievalService) {}

  @Get('rooms')
  @ApiOperation({ summary: 'Rooms with a consultation in progress' })
  @ApiOkResponse({ type: RoomsResponseDto })
  rooms(@CurrentPrincipal() principal: Principal, @Query() query: RoomsQueryDto): Promise<RoomsResponseDto> {
    return this.retrieval.rooms(principal, query);
  }

  @Get('rooms/:userKey/messages')
  @ApiOperation({ summary: "A customer's recent journal items, newest first" })
  @ApiOkResponse({ type: MessagesResponseDto })
  messages(@CurrentPrincipal() principal: Principal, @Param('userKey') userKey: string, @Query() query: MessagesQueryDto): Promise<MessagesResponseDto> {
    return this.retrieval.messages(principal, userKey, query);
  }

  @Get('conversations')
  @ApiOperation({ summary: 'Conversation summaries per channel, most recent first' })
  @ApiOkResponse({ type: [BrandConversationsDto] })
  conversations(@CurrentPrincipal() principal: Principal, @Query() query: ConversationsQueryDto): Promise<BrandConversationsDto[]> {
    return this.retrieval.conversations(principal, query);
  }

  @Get('conversation')
  @ApiOperation({ summary: 'One conversation with its lines' })
  @ApiOkResponse({ type: ConversationResponseDto })
  @ApiNotFoundResponse({ description: 'unknown convId (`NO_CONV`)' })
  conversation(@CurrentPrincipal() principal: Principal, @Query() query: ConversationQueryDto): Promise<ConversationResponseDto> {
    return this.retrieval.conversation(principal, query);
  }
}
