import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../common/auth/principal';
import { RequiresScope } from '../common/auth/route-access';
import { ApiErrors, type ErrorReasons, JSON_BODY_ERRORS, QUERY_ERRORS } from '../docs/api-errors';
import { BrandQueryDto } from '../retrieval/dto/retrieval-query.dto';
import { AdvanceClockDto, SandboxFaultDto, CustomerConsentDto, CustomerTapDto, CustomerWritesDto, OtherToolDeleteDto, SandboxBrandDto } from './dto/sandbox.dto';
import { SandboxService } from './sandbox.service';
import { ApiUserKeyParam, UserKeyParam } from '../common/http/user-key-param';
import { SandboxActionResponseDto, SandboxChatResponseDto, SandboxClockResponseDto, SandboxOkResponseDto } from './dto/sandbox-response.dto';

/** The sandbox messenger's refusals: a bad request is the caller's; others are HTTP 200 with ok:false and its code. */
const SANDBOX_ERRORS = {
  BAD_REQUEST: 'the sandbox messenger refused the request as malformed',
  UPSTREAM_UNAVAILABLE: "the sandbox messenger could not be reached, or this service refused its callback (a 4xx the messenger does not repeat: the action was done, but not journaled)",
} satisfies ErrorReasons;

/** Present only while the sandbox messenger is the upstream. Every route but the clock and the faults names a channel. */
@ApiTags('sandbox')
@Controller('sandbox')
export class SandboxController {
  constructor(private readonly sandbox: SandboxService) {}

  @Post('customers/:userKey/messages')
  @ApiUserKeyParam()
  @HttpCode(200)
  @ApiOperation({ summary: 'The simulated customer writes; starts a consultation when none is in progress' })
  @RequiresScope('BrandRead')
  @ApiOkResponse({ type: SandboxActionResponseDto, description: "ok:true and the seq of the last journal item it caused (null, with `pending`, while the messenger repeats a callback), or ok:false with the sandbox messenger's code" })
  @ApiErrors(JSON_BODY_ERRORS, SANDBOX_ERRORS)
  customerWrites(@CurrentPrincipal() principal: Principal, @UserKeyParam() userKey: string, @Body() dto: CustomerWritesDto) {
    return this.sandbox.customerWrites(principal, userKey, dto);
  }

  @Post('customers/:userKey/end')
  @ApiUserKeyParam()
  @HttpCode(200)
  @ApiOperation({ summary: 'The simulated customer leaves the chat' })
  @RequiresScope('BrandRead')
  @ApiOkResponse({ type: SandboxActionResponseDto, description: "ok:true and the seq of the last journal item it caused (null, with `pending`, while the messenger repeats a callback), or ok:false with the sandbox messenger's code" })
  @ApiErrors(JSON_BODY_ERRORS, SANDBOX_ERRORS)
  customerLeaves(@CurrentPrincipal() principal: Principal, @UserKeyParam() userKey: string, @Body() dto: SandboxBrandDto) {
    return this.sandbox.customerLeaves(principal, userKey, dto);
  }

  @Post('customers/:userKey/consent')
  @ApiUserKeyParam()
  @HttpCode(200)
  @ApiOperation({ summary: 'The simulated customer agrees to share nickname and phone number' })
  @RequiresScope('BrandRead')
  @ApiOkResponse({ type: SandboxActionResponseDto, description: "ok:true (the result is relayed, not journaled: no seq; `pending` while the messenger repeats its callback), or ok:false with the sandbox messenger's code" })
  @ApiErrors(JSON_BODY_ERRORS, SANDBOX_ERRORS)
  customerConsents(@CurrentPrincipal() principal: Principal, @UserKeyParam() userKey: string, @Body() dto: CustomerConsentDto) {
    return this.sandbox.customerConsents(principal, userKey, dto);
  }

  @Post('customers/:userKey/tap')
  @ApiUserKeyParam()
  @HttpCode(200)
  @ApiOperation({ summary: 'The simulated customer taps a quick reply of an agent bubble' })
  @RequiresScope('BrandRead')
  @ApiOkResponse({ type: SandboxActionResponseDto, description: "ok:true and the seq of the last journal item it caused (null, with `pending`, while the messenger repeats a callback), or ok:false with the sandbox messenger's code" })
  @ApiErrors(JSON_BODY_ERRORS, SANDBOX_ERRORS)
  customerTaps(@CurrentPrincipal() principal: Principal, @UserKeyParam() userKey: string, @Body() dto: CustomerTapDto) {
    return this.sandbox.customerTaps(principal, userKey, dto);
  }

  @Post('customers/:userKey/other-tool-delete')
  @ApiUserKeyParam()
  @HttpCode(200)
  @ApiOperation({ summary: 'Another agent tool deletes an agent bubble (the service hears of it by callback)' })
  @RequiresScope('BrandRead')
  @ApiOkResponse({ type: SandboxActionResponseDto, description: "ok:true and the seq of the last journal item it caused (null, with `pending`, while the messenger repeats a callback), or ok:false with the sandbox messenger's code" })
  @ApiErrors(JSON_BODY_ERRORS, SANDBOX_ERRORS)
  deleteFromOtherTool(@CurrentPrincipal() principal: Principal, @UserKeyParam() userKey: string, @Body() dto: OtherToolDeleteDto) {
    return this.sandbox.deleteFromOtherTool(principal, userKey, dto);
  }

  @Get('customers/:userKey/chat')
  @ApiUserKeyParam()
  @ApiOperation({ summary: "What the simulated customer's chat shows, oldest first" })
  @RequiresScope('BrandRead')
  @ApiOkResponse({ type: SandboxChatResponseDto, description: "ok:true and the bubbles, or ok:false with the sandbox messenger's code" })
  @ApiErrors(QUERY_ERRORS, SANDBOX_ERRORS)
  chat(@CurrentPrincipal() principal: Principal, @UserKeyParam() userKey: string, @Query() query: BrandQueryDto) {
    return this.sandbox.chat(principal, userKey, query.brand);
  }

  @Post('clock')
  @HttpCode(200)
  @ApiOperation({ summary: "Moves the sandbox's clock and the service's together" })
  @RequiresScope('BrandRead', { brand: false })
  @ApiOkResponse({ type: SandboxClockResponseDto, description: "ok:true and the clock's new time (now, epoch milliseconds)" })
  @ApiErrors(JSON_BODY_ERRORS, SANDBOX_ERRORS, { UPSTREAM_UNAVAILABLE: 'the sandbox messenger could not write its clock file; neither clock was moved' })
  advanceClock(@Body() dto: AdvanceClockDto) {
    return this.sandbox.advanceClock(dto);
  }

  @Post('faults')
  @HttpCode(200)
  @ApiOperation({ summary: "Has the sandbox messenger answer the next calls of a partner call with a failure its rules never give (-400, -500, -512, -600, -601), for every channel" })
  @RequiresScope('BrandWrite', { brand: false })
  @ApiOkResponse({ type: SandboxOkResponseDto })
  @ApiErrors(JSON_BODY_ERRORS, SANDBOX_ERRORS)
  setFault(@Body() dto: SandboxFaultDto) {
    return this.sandbox.setFault(dto);
  }

  @Delete('faults')
  @ApiOperation({ summary: 'Forgets the failures set with POST /sandbox/faults and not used yet' })
  @RequiresScope('BrandWrite', { brand: false })
  @ApiOkResponse({ type: SandboxOkResponseDto })
  @ApiErrors(SANDBOX_ERRORS)
  clearFaults() {
    return this.sandbox.clearFaults();
  }
}
