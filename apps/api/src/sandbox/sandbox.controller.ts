import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../common/auth/principal';
import { RequiresScope } from '../common/auth/route-access';
import { BrandQueryDto } from '../retrieval/dto/retrieval-query.dto';
import { AdvanceClockDto, CustomerConsentDto, CustomerTapDto, CustomerWritesDto, OtherToolDeleteDto, SandboxBrandDto } from './dto/sandbox.dto';
import { SandboxService } from './sandbox.service';

/** Present only while the sandbox messenger is the upstream. */
@ApiTags('sandbox')
@Controller('sandbox')
@RequiresScope('BrandRead')
export class SandboxController {
  constructor(private readonly sandbox: SandboxService) {}

  @Post('customers/:userKey/messages')
  @HttpCode(200)
  @ApiOperation({ summary: 'The simulated customer writes; starts a consultation when none is in progress' })
  customerWrites(@CurrentPrincipal() principal: Principal, @Param('userKey') userKey: string, @Body() dto: CustomerWritesDto) {
    return this.sandbox.customerWrites(principal, userKey, dto);
  }

  @Post('customers/:userKey/end')
  @HttpCode(200)
  @ApiOperation({ summary: 'The simulated customer leaves the chat' })
  customerLeaves(@CurrentPrincipal() principal: Principal, @Param('userKey') userKey: string, @Body() dto: SandboxBrandDto) {
    return this.sandbox.customerLeaves(principal, userKey, dto);
  }

  @Post('customers/:userKey/consent')
  @HttpCode(200)
  @ApiOperation({ summary: 'The simulated customer agrees to share nickname and phone number' })
  customerConsents(@CurrentPrincipal() principal: Principal, @Param('userKey') userKey: string, @Body() dto: CustomerConsentDto) {
    return this.sandbox.customerConsents(principal, userKey, dto);
  }

  @Post('customers/:userKey/tap')
  @HttpCode(200)
  @ApiOperation({ summary: 'The simulated customer taps a quick reply of an agent bubble' })
  customerTaps(@CurrentPrincipal() principal: Principal, @Param('userKey') userKey: string, @Body() dto: CustomerTapDto) {
    return this.sandbox.customerTaps(principal, userKey, dto);
  }

  @Post('customers/:userKey/other-tool-delete')
  @HttpCode(200)
  @ApiOperation({ summary: 'Another agent tool deletes an agent bubble (the service hears of it by callback)' })
  deleteFromOtherTool(@CurrentPrincipal() principal: Principal, @Param('userKey') userKey: string, @Body() dto: OtherToolDeleteDto) {
    return this.sandbox.deleteFromOtherTool(principal, userKey, dto);
  }

  @Get('customers/:userKey/chat')
  @ApiOperation({ summary: "What the simulated customer's chat shows, oldest first" })
  chat(@CurrentPrincipal() principal: Principal, @Param('userKey') userKey: string, @Query() query: BrandQueryDto) {
    return this.sandbox.chat(principal, userKey, query.brand);
  }

  @Post('clock')
  @HttpCode(200)
  @ApiOperation({ summary: "Moves the sandbox's clock and the service's together" })
  advanceClock(@Body() dto: AdvanceClockDto) {
    return this.sandbox.advanceClock(dto);
  }
}
