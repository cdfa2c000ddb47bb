import { SCOPES, type Scope } from '@brandwire/domain';
import type { Store } from '@brandwire/store';
import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CONFIG, STORE } from '../app/tokens';
import { CurrentPrincipal, type Principal } from '../common/auth/principal';
import { RequiresScope } from '../common/auth/route-access';
import type { Config } from '../config/config';

class PlanDto {
  @ApiProperty({ type: 'integer', description: 'consultations the plan allows' }) consultations!: number;
  @ApiProperty({ type: 'integer', description: 'consultations counted so far' }) used!: number;
  @ApiProperty({ type: 'integer', description: 'consultations left; sending is refused with 402 PLAN_EXHAUSTED at 0' }) remaining!: number;
}

class ChannelDto {
  @ApiProperty({ description: 'the brand key used as brandKey / brand / --channel' }) key!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'kakao' }) type!: string;
  @ApiProperty() chatbotBuilder!: boolean;
  @ApiProperty({ type: PlanDto }) plan!: PlanDto;
}

class BrandDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: [ChannelDto] }) channels!: ChannelDto[];
}

class MeResponseDto {
  @ApiProperty() ok!: true;
  @ApiProperty({ description: "the key's name" }) name!: string;
  @ApiProperty({ enum: SCOPES }) scope!: Scope;
  @ApiProperty({ type: [BrandDto] }) brands!: BrandDto[];
  @ApiProperty({ description: 'host of customer attachment URLs: a `[type] <url>` line of a customer message is an attachment only when its URL is https on exactly this host', example: 'talk-cdn.sandbox.invalid' })
  attachmentHost!: string;
}

@ApiTags('account')
@Controller('api/agent/me')
export class MeController {
  constructor(
    @Inject(STORE) private readonly store: Store,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @Get()
  // every key's scope is at least BrandRead, and no brand is named: never 403
  @RequiresScope('BrandRead', { brand: false })
  @ApiOperation({ summary: 'The key itself and the brands and channels it may use' })
  @ApiOkResponse({ type: MeResponseDto })
  async me(@CurrentPrincipal() principal: Principal): Promise<MeResponseDto> {
    const [brands, channels] = await Promise.all([this.store.directory.listBrands(), this.store.directory.listChannels()]);
    return {
      ok: true,
      name: principal.name,
      scope: principal.scope,
      brands: brands
        .filter((b) => principal.brandIds.includes(b.id))
        .map((b) => ({
          id: b.id,
          name: b.name,
          channels: channels
            .filter((c) => c.brandId === b.id)
            .map((c) => ({
              key: c.key, name: c.name, type: c.type, chatbotBuilder: c.chatbotBuilder, plan: { consultations: c.planConsultations, used: c.consultationsUsed, remaining: Math.max(0, c.planConsultations - c.consultationsUsed) },
            })),
        })),
      attachmentHost: this.config.attachmentHost,
    };
  }
}
