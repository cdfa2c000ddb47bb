import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class ConsentRequestDto {
  @ApiProperty({ example: 'acme-kakao' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  brandKey!: string;

  @ApiProperty({ description: 'the customer key; empty gives EMPTY' })
  @IsString()
  @MaxLength(200)
  userKey!: string;
}
