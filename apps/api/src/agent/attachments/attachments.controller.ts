import { Body, Controller, HttpCode, Post, UploadedFiles } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../../common/auth/principal';
import { RequiresScope } from '../../common/auth/route-access';
import { MultipartBody } from '../../common/http/multipart';
import { IdempotencyKey, IdempotencyService, type IdempotentCall, Idempotent } from '../../common/http/idempotency';
import { ApiErrors, BILLED_SEND_ERRORS, IDEMPOTENCY_ERRORS, MULTIPART_ERRORS } from '../../docs/api-errors';
import { UPLOAD_MAX_FILES, removeUploads, uploadOptions } from '../../media';
import { AttachmentsService } from './attachments.service';
import { SendAttachmentsDto, SendAttachmentsFormDto, SendAttachmentsResponseDto } from './dto/send-attachments.dto';

@ApiTags('outbound')
@Controller('api/agent/send/attachments')
export class AttachmentsController {
  constructor(
    private readonly attachments: AttachmentsService,
    private readonly idempotency: IdempotencyService,
  ) {}

  @Post()
  @HttpCode(200)
  @RequiresScope('BrandWrite')
  @Idempotent()
  @MultipartBody({ field: 'files', maxCount: UPLOAD_MAX_FILES, options: uploadOptions })
  @ApiBody({ type: SendAttachmentsFormDto })
  @ApiOperation({ summary: 'Send files: jpg/png/gif as image bubbles (rich cards or plain photos), others as file bubbles' })
  @ApiOkResponse({ type: SendAttachmentsResponseDto, description: 'a bubble that failed is an item with ok:false and why (UNSUPPORTED_IMAGE, IMAGE_TOO_LARGE, PAYLOAD_TOO_LARGE, a messenger code); the others were sent' })
  @ApiErrors(MULTIPART_ERRORS, IDEMPOTENCY_ERRORS, BILLED_SEND_ERRORS, {
    BAD_REQUEST: 'no files, or an empty (0-byte) file: nothing was sent',
    UPSTREAM_UNAVAILABLE: 'the messenger could not be reached and no bubble was delivered (once some were, the others fail their items instead)',
  })
  send(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: SendAttachmentsDto,
    @UploadedFiles() files: Express.Multer.File[] | undefined,
    @IdempotencyKey() idem: IdempotentCall | undefined,
  ): Promise<SendAttachmentsResponseDto> {
    // the uploads are removed whatever the answer, also one that idempotency gives without sending (a replay, a conflict)
    return this.idempotency.run(idem, () => this.attachments.send(principal, dto, files)).finally(() => removeUploads(files));
  }
}
