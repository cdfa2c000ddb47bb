import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../../common/auth/principal';
import { RequiresScope } from '../../common/auth/route-access';
import { ApiErrors, JSON_BODY_ERRORS, MESSENGER_ERRORS } from '../../docs/api-errors';
import { CustomerTargetDto } from '../send/dto/send-text.dto';
import { EndDto, EndWithBotDto, SessionActionResponseDto } from './dto/session-action.dto';
import { SessionActionsService } from './session-actions.service';

@ApiTags('outbound')
@Controller('api/agent')
@RequiresScope('BrandWrite')
// never billed: the greeting of an end reports its own failure (PLAN_EXHAUSTED for one) in the answer, and the end goes on
@ApiErrors(JSON_BODY_ERRORS, MESSENGER_ERRORS)
export class SessionActionsController {
  constructor(private readonly actions: SessionActionsService) {}

  @Post('end')
  @HttpCode(200)
  @ApiOperation({ summary: 'End the consultation, optionally sending a greeting first' })
  @ApiOkResponse({ type: SessionActionResponseDto })
  end(@CurrentPrincipal() principal: Principal, @Body() dto: EndDto): Promise<SessionActionResponseDto> {
    return this.actions.end(principal, dto);
  }

  @Post('end-with-bot')
  @HttpCode(200)
  @ApiOperation({ summary: 'End the consultation and hand off to the bot scenario' })
  @ApiOkResponse({ type: SessionActionResponseDto })
  endWithBot(@CurrentPrincipal() principal: Principal, @Body() dto: EndWithBotDto): Promise<SessionActionResponseDto> {
    return this.actions.endWithBot(principal, dto);
  }

  @Post('block')
  @HttpCode(200)
  @ApiOperation({ summary: 'Block the customer (ends the consultation)' })
  @ApiOkResponse({ type: SessionActionResponseDto })
  block(@CurrentPrincipal() principal: Principal, @Body() dto: CustomerTargetDto): Promise<SessionActionResponseDto> {
    return this.actions.block(principal, dto);
  }

  @Post('unblock')
  @HttpCode(200)
  @ApiOperation({ summary: 'Unblock the customer' })
  @ApiOkResponse({ type: SessionActionResponseDto })
  unblock(@CurrentPrincipal() principal: Principal, @Body() dto: CustomerTargetDto): Promise<SessionActionResponseDto> {
    return this.actions.unblock(principal, dto);
  }
}
