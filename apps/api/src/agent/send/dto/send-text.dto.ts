import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

export class CustomerTargetDto {
  @ApiProperty({ description: 'the channel (brand key) to send on', example: 'acme-kakao' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  brandKey!: string;

  @ApiProperty({ description: 'the customer key', example: 'u-1001' })
  @IsString()
  @IsNotEmpty()
  @Matches(/\S/, { message: '$property must not be blank' })
  @MaxLength(200)
  userKey!: string;
}

export class SendTextDto extends CustomerTargetDto {
  @ApiProperty({ description: 'message body; the messenger refuses more than 1,000 characters (-506)', example: 'Hello!' })
  @IsString()
  text!: string;
}
