import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../common/auth/principal';
import { RequiresScope } from '../common/auth/route-access';
import { ApiErrors, QUERY_ERRORS } from '../docs/api-errors';
import { BrandQueryDto } from '../retrieval/dto/retrieval-query.dto';
import { ProfileResponseDto } from './dto/profile.dto';
import { ProfileService } from './profile.service';

@ApiTags('settings')
@Controller('api/agent/settings/profile')
export class ProfileController {
  constructor(private readonly profiles: ProfileService) {}

  @Get()
  @RequiresScope('BrandRead')
  @ApiOperation({ summary: "The channel's sender profile (CLI: profile)" })
  @ApiOkResponse({ type: ProfileResponseDto })
  @ApiErrors(QUERY_ERRORS)
  get(@CurrentPrincipal() principal: Principal, @Query() query: BrandQueryDto): Promise<ProfileResponseDto> {
    return this.profiles.get(principal, query.brand);
  }
}
