import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../common/auth/principal';
import { RequiresScope } from '../common/auth/route-access';
import { ApiErrors, JSON_BODY_ERRORS, MESSENGER_ERRORS, QUERY_ERRORS } from '../docs/api-errors';
import { BrandQueryDto } from '../retrieval/dto/retrieval-query.dto';
import { ChatStateService } from './chat-state.service';
import { ChannelKeyDto } from './dto/channel-key.dto';
import { ChatStateResponseDto, ChatToggleResponseDto } from './dto/chat.dto';

const REFUSAL = 'a messenger refusal is HTTP 200 with ok: false and its code';

@ApiTags('settings')
@Controller('api/agent/settings/chat')
export class ChatController {
  constructor(private readonly chat: ChatStateService) {}

  @Get()
  @RequiresScope('BrandRead')
  @ApiOperation({ summary: 'Whether chat is on for the channel' })
  @ApiOkResponse({ type: ChatStateResponseDto })
  @ApiErrors(QUERY_ERRORS)
  get(@CurrentPrincipal() principal: Principal, @Query() query: BrandQueryDto): Promise<ChatStateResponseDto> {
    return this.chat.get(principal, query.brand);
  }

  @Post('activate')
  @HttpCode(200)
  @RequiresScope('Admin')
  @ApiOperation({ summary: 'Turns chat on: customers can start consultations again (Admin; CLI: chat activate)' })
  @ApiOkResponse({ type: ChatToggleResponseDto, description: REFUSAL })
  @ApiErrors(JSON_BODY_ERRORS, MESSENGER_ERRORS)
  activate(@CurrentPrincipal() principal: Principal, @Body() dto: ChannelKeyDto): Promise<ChatToggleResponseDto> {
    return this.chat.set(principal, dto.brandKey, true);
  }

  @Post('deactivate')
  @HttpCode(200)
  @RequiresScope('Admin')
  @ApiOperation({
    summary: 'Turns chat off: no new consultations, and sends are refused with -508 until it is on again (Admin; CLI: chat deactivate)',
  })
  @ApiOkResponse({ type: ChatToggleResponseDto, description: REFUSAL })
  @ApiErrors(JSON_BODY_ERRORS, MESSENGER_ERRORS)
  deactivate(@CurrentPrincipal() principal: Principal, @Body() dto: ChannelKeyDto): Promise<ChatToggleResponseDto> {
    return this.chat.set(principal, dto.brandKey, false);
  }
}
