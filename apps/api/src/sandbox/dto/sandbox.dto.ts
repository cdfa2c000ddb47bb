import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsNotEmpty, IsNumber, IsObject, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { NoControlCharacters } from '../../common/http/no-control-characters';

const ATTACHMENT_TYPES = ['photo', 'video', 'audio', 'file'] as const;

export class SandboxAttachmentDto {
  @ApiProperty({ enum: ATTACHMENT_TYPES })
  @IsIn(ATTACHMENT_TYPES)
  type!: (typeof ATTACHMENT_TYPES)[number];

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  caption?: string;
}

export class SandboxBrandDto {
  @ApiProperty({ example: 'acme-kakao' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @NoControlCharacters()
  brandKey!: string;
}

export class CustomerWritesDto extends SandboxBrandDto {
  @ApiPropertyOptional({ description: 'what the customer types' })
  @IsOptional()
  @IsString()
  text?: string;

  @ApiPropertyOptional({ type: [SandboxAttachmentDto], description: 'photos, videos, voice messages or files the customer sends' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(30)
  @ValidateNested({ each: true })
  @Type(() => SandboxAttachmentDto)
  attachments?: SandboxAttachmentDto[];

  @ApiPropertyOptional({ description: 'meta of the button that opened the chat (becomes the reference of a new consultation)' })
  @IsOptional()
  @IsObject()
  reference?: Record<string, unknown>;
}

export class AdvanceClockDto {
  @ApiProperty({ description: 'seconds to move the sandbox clock and the service clock forward', example: 3600 })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: '$property must be a number of seconds, such as 3600' })
  @Min(0)
  @Max(10 * 365 * 24 * 3600)
  advanceSeconds!: number;
}

/** The messenger's failures that no rule of the sandbox gives (it enforces the others itself). */
export const SANDBOX_FAULT_CODES = ['-400', '-500', '-512', '-600', '-601'] as const;

export class SandboxFaultDto {
  @ApiProperty({ description: "the partner call of the messenger to fail, by its path (such as /v1/write, /v1/rich, /v1/end)", example: '/v1/write' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  call!: string;

  @ApiProperty({ description: "the messenger's result code the calls answer", enum: SANDBOX_FAULT_CODES, example: '-600' })
  @IsIn(SANDBOX_FAULT_CODES, { message: `$property must be one of ${SANDBOX_FAULT_CODES.join(', ')}` })
  code!: (typeof SANDBOX_FAULT_CODES)[number];

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, description: 'how many of the next calls fail', default: 1, example: 1 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  times?: number;
}

export class OtherToolDeleteDto extends SandboxBrandDto {
  @ApiProperty({ description: 'serial of the agent bubble another agent tool deletes' })
  @IsString()
  @IsNotEmpty()
  serial!: string;
}

export class CustomerConsentDto extends SandboxBrandDto {
  @ApiProperty({ example: 'Jiwoo' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  nickname!: string;

  @ApiProperty({ example: '010-1234-5678' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(40)
  phoneNumber!: string;
}

export class CustomerTapDto extends SandboxBrandDto {
  @ApiProperty({ description: 'serial of the agent bubble whose quick reply is tapped' })
  @IsString()
  @IsNotEmpty()
  serial!: string;

  @ApiProperty({ type: 'integer', description: 'index of the quick reply (a bubble has at most 10)', minimum: 0, maximum: 9 })
  @IsInt()
  @Min(0)
  @Max(9)
  quickReply!: number;
}
