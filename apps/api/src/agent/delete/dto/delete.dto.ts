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

  @ApiPropertyOptional({ type: 'integer', minimum: LOOKBACK_MIN_S, maximum: LOOKBACK_MAX_S, default: LOOKBACK_DEFAULT_S, description: 'lookback of the text search, whole seconds' })
  @IsOptional()
  @IsInt()
  @Min(LOOKBACK_MIN_S)
  @Max(LOOKBACK_MAX_S)
  withinSeconds?: number;
}

/** The answer of a delete: HTTP 200 (deleted, or refused by the messenger), or 409 (refused here; see the operation's 409). */
export class DeleteResponseDto {
  @ApiProperty({ description: 'false when the messenger refused the delete' }) ok!: boolean;
  @ApiProperty({ description: '"0" on success, otherwise the messenger result code unchanged', example: '0' }) code!: string;
  @ApiProperty({ type: String, nullable: true, description: 'null on success' }) message!: string | null;
  @ApiProperty({ description: 'the bubble deleted (or that the messenger refused to delete)', example: 'bw-1763744400000000-k3x9q2' }) serial!: string;
}
