import { MAX_MESSAGES_DEFAULT, MAX_MESSAGES_LIMIT } from '@brandwire/domain';
import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { QueryInteger } from '../../common/http/form-fields';
import { NoControlCharacters } from '../../common/http/no-control-characters';

export const ROOMS_MAX_DEFAULT = 100;
export const ROOMS_MAX_LIMIT = 1000;
export const CONVERSATIONS_MAX_DEFAULT = 100;
export const CONVERSATIONS_MAX_LIMIT = 1000;

export class BrandQueryDto {
  @ApiProperty({ description: 'brand key of the channel', example: 'acme-kakao' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @NoControlCharacters()
  brand!: string;
}

export class MessagesQueryDto extends BrandQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_MESSAGES_LIMIT, default: MAX_MESSAGES_DEFAULT })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_MESSAGES_LIMIT)
  max?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    description:
      "only the items before this seq (newest first): pages back through a room past its latest 300 items, and `before=<a signal's seq + 1>&max=1` reads exactly that signal's item",
  })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  before?: number;
}

export class RoomsQueryDto extends BrandQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: ROOMS_MAX_LIMIT, default: ROOMS_MAX_DEFAULT })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(ROOMS_MAX_LIMIT)
  max?: number;
}

export class ConversationsQueryDto {
  @ApiPropertyOptional({ description: 'brand key; omitted lists every channel the key may read', example: 'acme-kakao' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @NoControlCharacters()
  brand?: string;

  @ApiPropertyOptional({ description: 'only this customer', maxLength: 200 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @NoControlCharacters()
  userKey?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: CONVERSATIONS_MAX_LIMIT, default: CONVERSATIONS_MAX_DEFAULT, description: 'per channel, most recent first' })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(CONVERSATIONS_MAX_LIMIT)
  max?: number;
}

export class ConversationQueryDto extends BrandQueryDto {
  @ApiProperty({ description: 'conversation id from the conversation list' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  convId!: string;
}
