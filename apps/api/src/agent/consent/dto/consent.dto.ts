import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

export class ConsentRequestDto {
  @ApiProperty({ example: 'acme-kakao' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  brandKey!: string;

  @ApiProperty({ description: 'the customer key; empty or missing gives EMPTY' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  userKey?: string;
}
