import { Body, Controller, Get, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../common/auth/principal';
import { RequiresScope } from '../common/auth/route-access';
import { ApiErrors, JSON_BODY_ERRORS, QUERY_ERRORS } from '../docs/api-errors';
import { BrandQueryDto } from '../retrieval/dto/retrieval-query.dto';
import { ScheduleResponseDto, SetScheduleDto } from './dto/schedule.dto';
import { ScheduleSettingsService } from './schedule-settings.service';

@ApiTags('settings')
@Controller('api/agent/settings/schedule')
export class ScheduleController {
  constructor(private readonly schedules: ScheduleSettingsService) {}

  @Get()
  @RequiresScope('BrandRead')
  @ApiOperation({ summary: "The channel's consultation hours (CLI: schedule get)" })
  @ApiOkResponse({ type: ScheduleResponseDto })
  @ApiErrors(QUERY_ERRORS)
  get(@CurrentPrincipal() principal: Principal, @Query() query: BrandQueryDto): Promise<ScheduleResponseDto> {
    return this.schedules.get(principal, query.brand);
  }

  @Put()
  @RequiresScope('Admin')
  @ApiOperation({
    summary: 'Sets the consultation hours; null or absent = always open (Admin; CLI: schedule set)',
    description: 'Outside the hours customers still reach the channel; the messenger adds its out-of-hours notice.',
  })
  @ApiOkResponse({ type: ScheduleResponseDto })
  @ApiErrors(JSON_BODY_ERRORS, {
    BAD_REQUEST: 'the schedule is invalid; the message names the field, e.g. `schedule.weekly.mon[1].end`',
    UPSTREAM_UNAVAILABLE: 'only while the sandbox messenger is the upstream: it refused the hours or could not be reached (nothing was stored)',
  })
  set(@CurrentPrincipal() principal: Principal, @Body() dto: SetScheduleDto): Promise<ScheduleResponseDto> {
    return this.schedules.set(principal, dto);
  }
}
