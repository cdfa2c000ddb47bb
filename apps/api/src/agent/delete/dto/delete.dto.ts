import { LOOKBACK_DEFAULT_S, LOOKBACK_MAX_S, LOOKBACK_MIN_S } from '@brandwire/domain';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { CustomerTargetDto } from '../../send/dto/send-text.dto';

export class DeleteDto extends CustomerTargetDto {
  @ApiPropertyOptional({ description: 'deletes exactly this bubble (recommended); one of serial and text' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  serial?: string;

  @ApiPropertyOptional({ description: 'deletes the most recent bubble with exactly this body; one of serial and text' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  text?: string;

  @ApiPropertyOptional({ minimum: LOOKBACK_MIN_S, maximum: LOOKBACK_MAX_S, default: LOOKBACK_DEFAULT_S, description: 'lookback of the text search, seconds' })
  @IsOptional()
  @IsInt()
  @Min(LOOKBACK_MIN_S)
  @Max(LOOKBACK_MAX_S)
  withinSeconds?: number;
}

export class DeleteResponseDto {
  @ApiProperty() ok!: boolean;
  @ApiProperty({ description: '"0" on success; NOT_FOUND, NOT_DELETABLE, ALREADY_DELETED, EXPIRED or a messenger code' }) code!: string;
  @ApiProperty({ type: String, nullable: true }) message!: string | null;
  @ApiPropertyOptional({ description: 'the bubble deleted (or that could not be)' }) serial?: string;
}
