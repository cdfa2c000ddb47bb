import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { NoControlCharacters } from '../../../common/http/no-control-characters';

export class ConsentRequestDto {
  @ApiProperty({ example: 'acme-kakao' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @NoControlCharacters()
  brandKey!: string;

  @ApiProperty({ description: 'the customer key; empty or missing gives EMPTY' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @NoControlCharacters()
  userKey?: string;
}
