import { Body, Controller, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiConsumes, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { CONFIG } from '../app/tokens';
import { CurrentPrincipal, type Principal } from '../common/auth/principal';
import { Public, RequiresScope } from '../common/auth/route-access';
import type { Config } from '../config/config';
import { ApiErrors, ErrorEnvelopeDto, type ErrorReasons, JSON_BODY_ERRORS } from '../docs/api-errors';
import {
  ApproveDeviceDto,
  DenyDeviceDto,
  DeviceCodeResponseDto,
  DeviceDecisionResponseDto,
  DeviceTokenErrorDto,
  DeviceTokenRequestDto,
  DeviceTokenResponseDto,
} from './dto/device-auth.dto';
import { DeviceAuthService } from './device-auth.service';
import { PAIRINGS_PER_MINUTE } from './pairing-rate-limit';

/** Approving or denying a user code (DeviceAuthService.pendingCode and the decision itself). */
const DECISION_ERRORS = {
  NOT_FOUND: 'no pairing is waiting for this user code',
  EXPIRED: 'the user code expired: `brandwire login` has to start again',
  BAD_REQUEST: 'the user code was already approved or denied (also meanwhile, by another call)',
} satisfies ErrorReasons;

/** The pairing routes' bodies: form-encoded as RFC 8628 has clients send them, or JSON (common/http/body-parsing). */
const PAIRING_BODY_ERRORS = {
  PAYLOAD_TOO_LARGE: 'the body is larger than the body limit (JSON_BODY_LIMIT, 1 MB by default; form-encoded bodies too)',
  UNSUPPORTED_MEDIA_TYPE: 'the body is neither application/x-www-form-urlencoded nor JSON',
} satisfies ErrorReasons;

@ApiTags('device pairing')
@Controller('api/auth/device')
export class DeviceAuthController {
  constructor(
    private readonly deviceAuth: DeviceAuthService,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /**
   * Where the person's browser reaches this service: its public address when one is set (behind a load balancer
   * that ends TLS the request says http, and a Host header is the client's to choose), else as the CLI's request named it.
   */
  private baseUrlOf(request: Request): string {
    if (this.config.publicUrl) return this.config.publicUrl.replace(/\/+$/, '');
    return `${request.protocol}://${request.get('host') ?? '127.0.0.1'}`;
  }

  @Post('code')
  @HttpCode(200)
  @Public()
  @UseGuards(ThrottlerGuard)
  @ApiOperation({ summary: 'Start a device pairing (RFC 8628 device authorization request), used by `brandwire login`' })
  @ApiOkResponse({ type: DeviceCodeResponseDto })
  @ApiErrors(
    { BAD_REQUEST: 'a JSON body that cannot be read (malformed, not an object); the request needs no field' },
    PAIRING_BODY_ERRORS,
    { RATE_LIMITED: `more than ${PAIRINGS_PER_MINUTE} pairings started from one address within a minute (Retry-After says when to try again)` },
  )
  async code(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<DeviceCodeResponseDto> {
    response.setHeader('Cache-Control', 'no-store');
    return this.deviceAuth.start(this.baseUrlOf(request));
  }

  @Post('token')
  @Public()
  @ApiOperation({ summary: 'Poll for the key of a device pairing (RFC 8628 device access token request); the key is handed out once' })
  // RFC 8628 has clients send form-encoded bodies; JSON is taken too (common/http/body-parsing)
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiBody({ type: DeviceTokenRequestDto })
  @ApiOkResponse({ type: DeviceTokenResponseDto })
  @ApiExtraModels(DeviceTokenErrorDto, ErrorEnvelopeDto)
  @ApiBadRequestResponse({
    description:
      'RFC 8628 errors as `{ error, error_description }`: authorization_pending, slow_down, access_denied, expired_token, invalid_grant, invalid_request, unsupported_grant_type. ' +
      'A JSON body that cannot be read (malformed, not an object) gets the error envelope with `BAD_REQUEST` instead.',
    content: { 'application/json': { schema: { oneOf: [{ $ref: getSchemaPath(DeviceTokenErrorDto) }, { $ref: getSchemaPath(ErrorEnvelopeDto) }] } } },
  })
  @ApiErrors(PAIRING_BODY_ERRORS)
  async token(@Body() body: Record<string, unknown> | undefined, @Res({ passthrough: true }) response: Response): Promise<DeviceTokenResponseDto | DeviceTokenErrorDto> {
    const outcome = await this.deviceAuth.poll(body);
    response.status(outcome.issued ? 200 : 400);
    response.setHeader('Cache-Control', 'no-store');
    return outcome.body;
  }

  @Post('approve')
  @HttpCode(200)
  @RequiresScope('Admin', { brand: false })
  @ApiOperation({ summary: "Approve a pairing's user code, choosing the new key's scope and brands (pairing page)" })
  @ApiOkResponse({ type: DeviceDecisionResponseDto })
  @ApiErrors(JSON_BODY_ERRORS, DECISION_ERRORS, { FORBIDDEN: 'the approving key has no access to a brand listed in brands' })
  approve(@CurrentPrincipal() principal: Principal, @Body() dto: ApproveDeviceDto): Promise<DeviceDecisionResponseDto> {
    return this.deviceAuth.approve(principal, dto);
  }

  @Post('deny')
  @HttpCode(200)
  @RequiresScope('Admin', { brand: false })
  @ApiOperation({ summary: "Deny a pairing's user code (pairing page)" })
  @ApiOkResponse({ type: DeviceDecisionResponseDto })
  @ApiErrors(JSON_BODY_ERRORS, DECISION_ERRORS)
  deny(@CurrentPrincipal() principal: Principal, @Body() dto: DenyDeviceDto): Promise<DeviceDecisionResponseDto> {
    return this.deviceAuth.deny(principal, dto);
  }
}
