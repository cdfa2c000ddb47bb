import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EmptyAsUnset } from '../../common/http/form-fields';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { NoControlCharacters } from '../../common/http/no-control-characters';

const IMAGE_TYPES = ['rich', 'plain'] as const;
const FILE_TYPES = ['file', 'audio', 'video'] as const;

export class UploadImageDto {
  @ApiProperty({ description: 'brand key', example: 'acme-kakao' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @NoControlCharacters()
  brand!: string;

  @ApiPropertyOptional({ enum: IMAGE_TYPES, default: 'rich' })
  @EmptyAsUnset()
  @IsOptional()
  @IsIn(IMAGE_TYPES)
  imageType?: (typeof IMAGE_TYPES)[number];
}

export class UploadImageFormDto extends UploadImageDto {
  @ApiProperty({ type: 'string', format: 'binary', description: 'jpg, png or gif (content is checked)' })
  file!: unknown;
}

export class UploadFileDto {
  @ApiProperty({ description: 'brand key', example: 'acme-kakao' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @NoControlCharacters()
  brand!: string;

  @ApiProperty({ enum: FILE_TYPES, description: 'file and video up to 300 MB, audio up to 10 MB' })
  @IsIn(FILE_TYPES)
  fileType!: (typeof FILE_TYPES)[number];
}

export class UploadFileFormDto extends UploadFileDto {
  @ApiProperty({ type: 'string', format: 'binary' })
  file!: unknown;
}

export class UploadImageResponseDto {
  @ApiProperty() ok!: true;
  @ApiProperty({ example: '0' }) code!: string;
  @ApiProperty({ type: String, nullable: true }) message!: null;
  @ApiProperty({ description: 'messenger-hosted URL, for rich img_url (rich) or send/image (plain)' }) url!: string;
  @ApiProperty({ enum: IMAGE_TYPES }) imageType!: 'rich' | 'plain';
  @ApiProperty({ description: 'file name' }) name!: string;
  @ApiProperty({ type: 'integer', description: 'bytes uploaded (after preparation)' }) size!: number;
}

export class UploadFileResponseDto {
  @ApiProperty() ok!: true;
  @ApiProperty({ example: '0' }) code!: string;
  @ApiProperty({ type: String, nullable: true }) message!: null;
  @ApiProperty({ description: 'messenger-hosted URL' }) url!: string;
  @ApiProperty({ enum: FILE_TYPES }) fileType!: 'file' | 'audio' | 'video';
  @ApiProperty({ description: 'file name' }) name!: string;
  @ApiProperty({ type: 'integer', description: 'bytes' }) size!: number;
}
