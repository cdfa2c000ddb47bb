import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { NoControlCharacters } from '../../../common/http/no-control-characters';

export class CustomerTargetDto {
  @ApiProperty({ description: 'the channel (brand key) to send on', example: 'acme-kakao' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @NoControlCharacters()
  brandKey!: string;

  @ApiProperty({ description: 'the customer key; not empty or blank, no control characters', example: 'u-1001', minLength: 1, maxLength: 200, pattern: '\\S' })
  @IsString()
  // one rule for empty and blank alike, so that "" gets one message (IsNotEmpty would add a second)
  @Matches(/\S/, { message: '$property must not be blank (empty or only spaces)' })
  @MaxLength(200)
  @NoControlCharacters()
  userKey!: string;
}

export class SendTextDto extends CustomerTargetDto {
  @ApiProperty({ description: 'message body; the messenger refuses more than 1,000 characters (-506)', example: 'Hello!' })
  @IsString()
  text!: string;
}
