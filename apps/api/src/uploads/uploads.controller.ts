import { Body, Controller, HttpCode, Post, UploadedFile } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../common/auth/principal';
import { RequiresScope } from '../common/auth/route-access';
import { MultipartBody } from '../common/http/multipart';
import { uploadOptions } from '../media';
import { UploadFileDto, UploadFileFormDto, UploadFileResponseDto, UploadImageDto, UploadImageFormDto, UploadImageResponseDto } from './dto/upload.dto';
import { UploadsService } from './uploads.service';

@ApiTags('outbound')
@Controller('api/agent/upload')
@RequiresScope('BrandWrite')
export class UploadsController {
  constructor(private readonly uploads: UploadsService) {}

  @Post('image')
  @HttpCode(200)
  @MultipartBody({ field: 'file', maxCount: 1, options: uploadOptions })
  @ApiBody({ type: UploadImageFormDto })
  @ApiOperation({ summary: 'Upload an image to the messenger: rich (for rich bubbles, as uploaded) or plain (for send/image, prepared)' })
  @ApiOkResponse({ type: UploadImageResponseDto, description: '400 UNSUPPORTED_IMAGE (not a real jpg/png/gif, or rich geometry), 413 IMAGE_TOO_LARGE' })
  image(@CurrentPrincipal() principal: Principal, @Body() dto: UploadImageDto, @UploadedFile() file: Express.Multer.File | undefined): Promise<UploadImageResponseDto> {
    return this.uploads.image(principal, dto, file);
  }

  @Post('file')
  @HttpCode(200)
  @MultipartBody({ field: 'file', maxCount: 1, options: uploadOptions })
  @ApiBody({ type: UploadFileFormDto })
  @ApiOperation({ summary: 'Upload a file, audio or video to the messenger' })
  @ApiOkResponse({ type: UploadFileResponseDto, description: '413 PAYLOAD_TOO_LARGE above the type limit' })
  file(@CurrentPrincipal() principal: Principal, @Body() dto: UploadFileDto, @UploadedFile() file: Express.Multer.File | undefined): Promise<UploadFileResponseDto> {
    return this.uploads.file(principal, dto, file);
  }
}
