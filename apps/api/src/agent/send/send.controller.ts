import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../../common/auth/principal';
import { RequiresScope } from '../../common/auth/route-access';
import { IdempotencyKey, IdempotencyService, type IdempotentCall, Idempotent } from '../../common/http/idempotency';
import { ApiErrors, BILLED_SEND_ERRORS, CONSENT_ERRORS, IDEMPOTENCY_ERRORS, JSON_BODY_ERRORS, MESSENGER_ERRORS } from '../../docs/api-errors';
import { SendResponseDto } from './dto/send-response.dto';
import { SendImageDto } from './dto/send-image.dto';
import { SendRichDto } from './dto/send-rich.dto';
import { SendTextDto } from './dto/send-text.dto';
import { SendService } from './send.service';

/** What every send of this controller may answer besides its own codes. */
const SEND_ERRORS = [JSON_BODY_ERRORS, IDEMPOTENCY_ERRORS, BILLED_SEND_ERRORS, MESSENGER_ERRORS];

@ApiTags('outbound')
@Controller('api/agent/send')
export class SendController {
  constructor(
    private readonly sends: SendService,
    private readonly idempotency: IdempotencyService,
  ) {}

  @Post()
  @HttpCode(200)
  @RequiresScope('BrandWrite')
  @Idempotent()
  @ApiOperation({ summary: 'Send a text message to a customer' })
  @ApiOkResponse({ type: SendResponseDto, description: 'ok:false with the messenger code (e.g. -502) when the messenger rejects' })
  @ApiErrors(...SEND_ERRORS)
  sendText(@CurrentPrincipal() principal: Principal, @Body() dto: SendTextDto, @IdempotencyKey() idem: IdempotentCall | undefined): Promise<SendResponseDto> {
    return this.idempotency.run(idem, () => this.sends.sendText(principal, dto));
  }

  @Post('rich')
  @HttpCode(200)
  @RequiresScope('BrandWrite')
  @Idempotent()
  @ApiOperation({ summary: 'Send a rich message (the rich envelope as a string of JSON)' })
  @ApiOkResponse({ type: SendResponseDto, description: 'ok:false with the messenger code when the envelope breaks a messenger limit' })
  @ApiErrors(...SEND_ERRORS, {
    BAD_RICH: 'rich is not a JSON object, nests too deeply, lacks chat_bubble_type, or holds a field the server fills (user_key, sender_key, serial_number)',
    UNSUPPORTED_BUBBLE: 'chat_bubble_type MSGR_CERT (identity verification)',
    UNSUPPORTED_CHANNEL: `chat_bubble_type PERSONAL, and ${CONSENT_ERRORS.UNSUPPORTED_CHANNEL}`,
    NO_WEBHOOK: `chat_bubble_type PERSONAL, and ${CONSENT_ERRORS.NO_WEBHOOK}`,
  })
  sendRich(@CurrentPrincipal() principal: Principal, @Body() dto: SendRichDto, @IdempotencyKey() idem: IdempotentCall | undefined): Promise<SendResponseDto> {
    return this.idempotency.run(idem, () => this.sends.sendRich(principal, dto));
  }

  @Post('image')
  @HttpCode(200)
  @RequiresScope('BrandWrite')
  @Idempotent()
  @ApiOperation({ summary: 'Send a regular photo (a plain image upload URL); no caption' })
  @ApiOkResponse({ type: SendResponseDto })
  @ApiErrors(...SEND_ERRORS, { BAD_URL: 'imageUrl is not a URL returned by POST /api/agent/upload/image with imageType=plain on this channel' })
  sendImage(@CurrentPrincipal() principal: Principal, @Body() dto: SendImageDto, @IdempotencyKey() idem: IdempotentCall | undefined): Promise<SendResponseDto> {
    return this.idempotency.run(idem, () => this.sends.sendImage(principal, dto));
  }
}
