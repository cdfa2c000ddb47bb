import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../../common/auth/principal';
import { RequiresScope } from '../../common/auth/route-access';
import { IdempotencyKey, IdempotencyService, type IdempotentCall, Idempotent } from '../../common/http/idempotency';
import { SendResponseDto } from './dto/send-response.dto';
import { SendImageDto } from './dto/send-image.dto';
import { SendRichDto } from './dto/send-rich.dto';
import { SendTextDto } from './dto/send-text.dto';
import { SendService } from './send.service';

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
  sendText(@CurrentPrincipal() principal: Principal, @Body() dto: SendTextDto, @IdempotencyKey() idem: IdempotentCall | undefined): Promise<SendResponseDto> {
    return this.idempotency.run(idem, () => this.sends.sendText(principal, dto));
  }

  @Post('rich')
  @HttpCode(200)
  @RequiresScope('BrandWrite')
  @Idempotent()
  @ApiOperation({ summary: 'Send a rich message (the rich envelope as a string of JSON)' })
  @ApiOkResponse({ type: SendResponseDto, description: 'ok:false with the messenger code when the envelope breaks a messenger limit' })
  @ApiBadRequestResponse({ description: '`BAD_RICH` (not JSON, server-filled fields), `UNSUPPORTED_BUBBLE` (MSGR_CERT)' })
  sendRich(@CurrentPrincipal() principal: Principal, @Body() dto: SendRichDto, @IdempotencyKey() idem: IdempotentCall | undefined): Promise<SendResponseDto> {
    return this.idempotency.run(idem, () => this.sends.sendRich(principal, dto));
  }

  @Post('image')
  @HttpCode(200)
  @RequiresScope('BrandWrite')
  @Idempotent()
  @ApiOperation({ summary: 'Send a regular photo (a plain image upload URL); no caption' })
  @ApiOkResponse({ type: SendResponseDto })
  @ApiBadRequestResponse({ description: '`BAD_URL` (not a plain upload URL of this channel)' })
  sendImage(@CurrentPrincipal() principal: Principal, @Body() dto: SendImageDto, @IdempotencyKey() idem: IdempotentCall | undefined): Promise<SendResponseDto> {
    return this.idempotency.run(idem, () => this.sends.sendImage(principal, dto));
  }
}
