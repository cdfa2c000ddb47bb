import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { CustomerTargetDto } from './send-text.dto';

export class SendImageDto extends CustomerTargetDto {
  @ApiProperty({ description: 'a URL returned by POST /api/agent/upload/image with imageType=plain; an external URL gives 400 BAD_URL' })
  @IsString()
  @MaxLength(2000)
  imageUrl!: string;
}
