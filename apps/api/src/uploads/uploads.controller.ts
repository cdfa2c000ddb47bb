import { Body, Controller, HttpCode, Post, UploadedFile } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../common/auth/principal';
import { RequiresScope } from '../common/auth/route-access';
import { MultipartBody } from '../common/http/multipart';
import { ApiErrors, MESSENGER_ERRORS, MULTIPART_ERRORS } from '../docs/api-errors';
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
  @ApiOkResponse({ type: UploadImageResponseDto })
  @ApiErrors(MULTIPART_ERRORS, MESSENGER_ERRORS, {
    BAD_REQUEST: 'no file (multipart part "file"), or the messenger refused the image for another reason than the image itself (the message has its code)',
    UNSUPPORTED_IMAGE:
      'the file is not a readable jpg, png or gif (content is checked), its size is unsupported (a side under 20 px, one side more than 20 times the other, above 120 megapixels), a rich image is outside 3:4 to 2:1 or narrower than 500 px, or the messenger found the image bad (-505)',
    IMAGE_TOO_LARGE: 'the image is larger than 5 MB (a rich image as uploaded; a plain one even after scaling down)',
  })
  image(@CurrentPrincipal() principal: Principal, @Body() dto: UploadImageDto, @UploadedFile() file: Express.Multer.File | undefined): Promise<UploadImageResponseDto> {
    return this.uploads.image(principal, dto, file);
  }

  @Post('file')
  @HttpCode(200)
  @MultipartBody({ field: 'file', maxCount: 1, options: uploadOptions })
  @ApiBody({ type: UploadFileFormDto })
  @ApiOperation({ summary: 'Upload a file, audio or video to the messenger' })
  @ApiOkResponse({ type: UploadFileResponseDto })
  @ApiErrors(MULTIPART_ERRORS, MESSENGER_ERRORS, {
    BAD_REQUEST: 'no file (multipart part "file"), an empty (0-byte) file, or the messenger refused the file (the message has its code)',
    PAYLOAD_TOO_LARGE: 'the file is larger than its fileType takes: file and video 300 MB, audio 10 MB',
  })
  file(@CurrentPrincipal() principal: Principal, @Body() dto: UploadFileDto, @UploadedFile() file: Express.Multer.File | undefined): Promise<UploadFileResponseDto> {
    return this.uploads.file(principal, dto, file);
  }
}
