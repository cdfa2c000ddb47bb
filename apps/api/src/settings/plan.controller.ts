import type { Store } from '@brandwire/store';
import { Body, Controller, Get, Inject, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { STORE } from '../app/tokens';
import { BrandAccessService } from '../common/auth/brand-access.service';
import { CurrentPrincipal, type Principal } from '../common/auth/principal';
import { RequiresScope } from '../common/auth/route-access';
import { ApiErrors, JSON_BODY_ERRORS, QUERY_ERRORS } from '../docs/api-errors';
import { BrandQueryDto } from '../retrieval/dto/retrieval-query.dto';
import { PlanResponseDto, SetPlanDto } from './dto/plan.dto';

/** The channel's subscription plan: read by any key of the brand, raised or lowered by Admin keys. Never billed. */
@ApiTags('settings')
@Controller('api/agent/settings/plan')
export class PlanController {
  constructor(
    private readonly access: BrandAccessService,
    @Inject(STORE) private readonly store: Store,
  ) {}

  @Get()
  @RequiresScope('BrandRead')
  @ApiOperation({ summary: "The channel's plan and its use" })
  @ApiOkResponse({ type: PlanResponseDto })
  @ApiErrors(QUERY_ERRORS)
  async get(@CurrentPrincipal() principal: Principal, @Query() query: BrandQueryDto): Promise<PlanResponseDto> {
    const channel = await this.access.channelFor(principal, query.brand, 'brand');
    return this.plan(channel.key);
  }

  @Put()
  @RequiresScope('Admin')
  @ApiOperation({ summary: "Sets the channel's plan (Admin)" })
  @ApiOkResponse({ type: PlanResponseDto })
  @ApiErrors(JSON_BODY_ERRORS)
  async set(@CurrentPrincipal() principal: Principal, @Body() dto: SetPlanDto): Promise<PlanResponseDto> {
    const channel = await this.access.channelFor(principal, dto.brandKey);
    await this.store.billing.setPlan(channel.key, dto.consultations);
    return this.plan(channel.key);
  }

  private async plan(channelKey: string): Promise<PlanResponseDto> {
    const channel = await this.store.directory.findChannel(channelKey);
    const consultations = channel?.planConsultations ?? 0;
    const used = channel?.consultationsUsed ?? 0;
    return { ok: true, brand: channelKey, consultations, used, remaining: Math.max(0, consultations - used) };
  }
}
