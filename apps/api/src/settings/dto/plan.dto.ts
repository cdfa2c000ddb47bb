import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsNotEmpty, IsString, Max, MaxLength, Min } from 'class-validator';
import { NoControlCharacters } from '../../common/http/no-control-characters';

export class SetPlanDto {
  @ApiProperty({ example: 'acme-kakao' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @NoControlCharacters()
  brandKey!: string;

  @ApiProperty({ type: 'integer', description: 'consultations the plan allows', minimum: 0, maximum: 1_000_000_000 })
  @IsInt()
  @Min(0)
  @Max(1_000_000_000)
  consultations!: number;
}

export class PlanResponseDto {
  @ApiProperty() ok!: true;
  @ApiProperty() brand!: string;
  @ApiProperty({ type: 'integer', description: 'consultations the plan allows' }) consultations!: number;
  @ApiProperty({ type: 'integer', description: 'consultations counted so far' }) used!: number;
  @ApiProperty({ type: 'integer', description: 'consultations left' }) remaining!: number;
}
