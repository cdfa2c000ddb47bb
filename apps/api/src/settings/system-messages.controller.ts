import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../common/auth/principal';
import { RequiresScope } from '../common/auth/route-access';
import { ApiErrors, QUERY_ERRORS } from '../docs/api-errors';
import { BrandQueryDto } from '../retrieval/dto/retrieval-query.dto';
import { SystemMessagesResponseDto } from './dto/system-messages.dto';
import { SystemMessagesService } from './system-messages.service';

@ApiTags('settings')
@Controller('api/agent/settings/system-messages')
export class SystemMessagesController {
  constructor(private readonly messages: SystemMessagesService) {}

  @Get()
  @RequiresScope('BrandRead')
  @ApiOperation({ summary: 'The texts the messenger shows customers on its own: greeting, out of hours, auto answers S1-S4 (CLI: sysmsg)' })
  @ApiOkResponse({ type: SystemMessagesResponseDto })
  @ApiErrors(QUERY_ERRORS, {
    UPSTREAM_UNAVAILABLE: 'only while the sandbox messenger is the upstream: it has no settings for the channel or could not be reached',
  })
  get(@CurrentPrincipal() principal: Principal, @Query() query: BrandQueryDto): Promise<SystemMessagesResponseDto> {
    return this.messages.get(principal, query.brand);
  }
}
