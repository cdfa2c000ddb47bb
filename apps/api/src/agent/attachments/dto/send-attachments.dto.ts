import { MAX_TEXT_CHARACTERS } from '@brandwire/domain';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { EmptyAsUnset } from '../../../common/http/form-fields';
import { MaxCharacters } from '../../../common/http/max-characters';
import { CustomerTargetDto } from '../../send/dto/send-text.dto';

export const IMAGE_STYLES = ['rich', 'plain'] as const;
export type ImageStyle = (typeof IMAGE_STYLES)[number];

export class SendAttachmentsDto extends CustomerTargetDto {
  @ApiPropertyOptional({
    description: 'rich images: the caption of the first image; plain photos: a text bubble sent before them; files only: a text bubble sent before them (characters counted as code points)',
    maxLength: MAX_TEXT_CHARACTERS,
  })
  @IsOptional()
  @IsString()
  // checked before anything is sent: a text the messenger refused after the files went would leave half a send
  @MaxCharacters(MAX_TEXT_CHARACTERS)
  text?: string;

  @ApiPropertyOptional({ enum: IMAGE_STYLES, default: 'rich' })
  @EmptyAsUnset()
  @IsOptional()
  @IsIn(IMAGE_STYLES)
  imageStyle?: ImageStyle;
}

export class SendAttachmentsFormDto extends SendAttachmentsDto {
  @ApiProperty({ type: 'array', items: { type: 'string', format: 'binary' }, description: 'repeatable; jpg, png and gif become image bubbles, everything else file bubbles' })
  files!: unknown[];
}

export class AttachmentResultDto {
  @ApiProperty({ enum: ['image', 'file', 'text'] }) kind!: 'image' | 'file' | 'text';
  @ApiPropertyOptional({ description: "the name of the file part the bubble came from (image and file items): the images are sent first, whatever the parts' order" })
  file?: string;
  @ApiProperty() ok!: boolean;
  @ApiProperty({ description: '"0", a messenger code, or UNSUPPORTED_IMAGE / IMAGE_TOO_LARGE / PAYLOAD_TOO_LARGE' }) code!: string;
  @ApiProperty() serial!: string;
  @ApiPropertyOptional({ description: 'why the item failed; a failed item was never delivered' }) message?: string;
}

export class SendAttachmentsResponseDto {
  @ApiProperty({ description: 'true when at least one bubble succeeded' }) ok!: boolean;
  @ApiProperty({ type: [AttachmentResultDto] }) results!: AttachmentResultDto[];
}
