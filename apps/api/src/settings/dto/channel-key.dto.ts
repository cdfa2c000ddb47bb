import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { NoControlCharacters } from '../../common/http/no-control-characters';

/** The body of a setting change that needs nothing but the channel. */
export class ChannelKeyDto {
  @ApiProperty({ description: 'brand key of the channel', example: 'acme-kakao' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @NoControlCharacters()
  brandKey!: string;
}
