import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { QueryInteger } from '../../common/http/form-fields';
import { BrandQueryDto } from './retrieval-query.dto';
import { ConversationResponseDto } from './retrieval-response.dto';

export const EXPORT_MAX_DEFAULT = 100;
export const EXPORT_MAX_LIMIT = 1000;
export const CURSOR_MESSAGE = 'after must be the next cursor of a previous page';

export class ConversationExportQueryDto extends BrandQueryDto {
  @ApiPropertyOptional({ description: '`next` of the previous page; from the first conversation when left out' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  @Matches(/^[A-Za-z0-9_-]+$/, { message: CURSOR_MESSAGE })
  after?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: EXPORT_MAX_LIMIT, default: EXPORT_MAX_DEFAULT, description: 'conversations per page' })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(EXPORT_MAX_LIMIT)
  max?: number;
}

export class ConversationExportResponseDto {
  @ApiProperty() ok!: true;
  @ApiProperty() brand!: string;
  @ApiProperty({ type: [ConversationResponseDto], description: 'whole conversations in convId order, each exactly as GET /api/agent/conversation returns it' })
  conversations!: ConversationResponseDto[];

  @ApiProperty({ type: String, nullable: true, description: 'pass as after for the next page; null on the last page' })
  next!: string | null;
}
