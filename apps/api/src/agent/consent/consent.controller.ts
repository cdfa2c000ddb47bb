import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../../common/auth/principal';
import { RequiresScope } from '../../common/auth/route-access';
import { IdempotencyKey, IdempotencyService, type IdempotentCall, Idempotent } from '../../common/http/idempotency';
import { ApiErrors, BILLED_SEND_ERRORS, CONSENT_ERRORS, IDEMPOTENCY_ERRORS, JSON_BODY_ERRORS, MESSENGER_ERRORS } from '../../docs/api-errors';
import { SendResponseDto } from '../send/dto/send-response.dto';
import { ConsentService } from './consent.service';
import { ConsentRequestDto } from './dto/consent.dto';

@ApiTags('outbound')
@Controller('api/agent/personal-info/request')
export class ConsentController {
  constructor(
    private readonly consent: ConsentService,
    private readonly idempotency: IdempotencyService,
  ) {}

  @Post()
  @HttpCode(200)
  @RequiresScope('BrandWrite')
  @Idempotent()
  @ApiOperation({ summary: 'Ask the customer to share nickname and phone number (Kakao-type channels, once per consultation)' })
  @ApiOkResponse({ type: SendResponseDto, description: 'ok reports only the sending of the bubble; -520 when already requested in this consultation' })
  @ApiErrors(JSON_BODY_ERRORS, IDEMPOTENCY_ERRORS, CONSENT_ERRORS, BILLED_SEND_ERRORS, MESSENGER_ERRORS, {
    EMPTY: 'userKey is missing, empty or blank',
  })
  request(@CurrentPrincipal() principal: Principal, @Body() dto: ConsentRequestDto, @IdempotencyKey() idem: IdempotentCall | undefined): Promise<SendResponseDto> {
    return this.idempotency.run(idem, () => this.consent.request(principal, dto));
  }
}
