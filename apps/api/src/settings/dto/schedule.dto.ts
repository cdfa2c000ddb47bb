import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { NoControlCharacters } from '../../common/http/no-control-characters';

/** Documentation of the schedule JSON; it is checked by parseSchedule of the domain, which names the failing path. */
export class OpeningRangeDto {
  @ApiProperty({ description: 'local time HH:MM (24 h), inclusive', example: '09:00' }) start!: string;
  @ApiProperty({ description: 'local time HH:MM (24 h, 24:00 = end of the day), exclusive; later than start', example: '18:00' }) end!: string;
}

export class WeeklyHoursDto {
  @ApiPropertyOptional({ type: [OpeningRangeDto] }) mon?: OpeningRangeDto[];
  @ApiPropertyOptional({ type: [OpeningRangeDto] }) tue?: OpeningRangeDto[];
  @ApiPropertyOptional({ type: [OpeningRangeDto] }) wed?: OpeningRangeDto[];
  @ApiPropertyOptional({ type: [OpeningRangeDto] }) thu?: OpeningRangeDto[];
  @ApiPropertyOptional({ type: [OpeningRangeDto] }) fri?: OpeningRangeDto[];
  @ApiPropertyOptional({ type: [OpeningRangeDto] }) sat?: OpeningRangeDto[];
  @ApiPropertyOptional({ type: [OpeningRangeDto] }) sun?: OpeningRangeDto[];
}

export class ScheduleDto {
  @ApiPropertyOptional({ description: "IANA time zone; defaults to the service's BRANDWIRE_TIMEZONE", example: 'Asia/Seoul' }) timeZone?: string;
  @ApiProperty({
    type: WeeklyHoursDto,
    description: 'opening ranges per weekday (0..n, not overlapping); a day without ranges is closed',
    example: { mon: [{ start: '09:00', end: '12:00' }, { start: '13:00', end: '18:00' }], sat: [] },
  })
  weekly!: WeeklyHoursDto;
  @ApiPropertyOptional({ type: [String], description: 'local dates YYYY-MM-DD closed all day', example: ['2025-12-25'] }) holidays?: string[];
}

export class SetScheduleDto {
  @ApiProperty({ description: 'brand key of the channel', example: 'acme-kakao' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @NoControlCharacters()
  brandKey!: string;

  @ApiPropertyOptional({ type: ScheduleDto, nullable: true, description: 'the consultation hours; null or absent = always open' })
  @Allow()
  schedule?: unknown;
}

export class ScheduleResponseDto {
  @ApiProperty() ok!: true;
  @ApiProperty({ example: 'acme-kakao' }) brand!: string;
  @ApiProperty({ type: ScheduleDto, nullable: true, description: 'complete form (time zone filled in, every weekday, ranges sorted); null = always open' })
  schedule!: ScheduleDto | null;
  @ApiProperty({ description: "whether the channel is within its hours now (service clock)" }) openNow!: boolean;
}
