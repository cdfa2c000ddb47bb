import { scopeAllows } from '@brandwire/domain';
import type { Store } from '@brandwire/store';
import { Body, Controller, Get, Inject, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SANDBOX, STORE } from '../app/tokens';
import { BrandAccessService } from '../common/auth/brand-access.service';
import { CurrentPrincipal, type Principal } from '../common/auth/principal';
import { RequiresScope } from '../common/auth/route-access';
import { fail } from '../common/errors/envelope';
import { BrandQueryDto } from '../retrieval/dto/retrieval-query.dto';
import type { SandboxLink } from '../sandbox/sandbox-link';
import { DeliveryWorker } from './delivery-worker.service';
import { SetWebhookDto, WebhookSettingsDto } from './dto/signals.dto';
import { checkWebhookUrl } from './webhook-url-policy';
import { ApiErrors, JSON_BODY_ERRORS, QUERY_ERRORS } from '../docs/api-errors';

/** The channel's inbound webhook (the "inbound domain"): readable by every key of the brand, set by Admin keys. */
@ApiTags('settings')
@Controller('api/agent/settings/webhook')
export class WebhookSettingsController {
  constructor(
    private readonly access: BrandAccessService,
    @Inject(STORE) private readonly store: Store,
    @Inject(SANDBOX) private readonly sandbox: SandboxLink | undefined,
    private readonly delivery: DeliveryWorker,
  ) {}

  @Get()
  @RequiresScope('BrandRead')
  @ApiOperation({ summary: 'The inbound webhook URL (its origin only for BrandRead keys; for Admin keys also its signing secret)' })
  @ApiOkResponse({ type: WebhookSettingsDto })
  @ApiErrors(QUERY_ERRORS)
  async get(@CurrentPrincipal() principal: Principal, @Query() query: BrandQueryDto): Promise<WebhookSettingsDto> {
    const channel = await this.access.channelFor(principal, query.brand, 'brand');
    return this.view(principal, channel.key);
  }

  @Put()
  @RequiresScope('Admin')
  @ApiOperation({ summary: 'Sets or clears the inbound webhook URL (Admin)' })
  @ApiOkResponse({ type: WebhookSettingsDto })
  @ApiErrors(JSON_BODY_ERRORS, { BAD_REQUEST: 'the url is missing, empty, not https (http only to loopback with the sandbox messenger), carries credentials, or reaches a private, link-local or metadata address' })
  async set(@CurrentPrincipal() principal: Principal, @Body() dto: SetWebhookDto): Promise<WebhookSettingsDto> {
    const channel = await this.access.channelFor(principal, dto.brandKey);
    let url: string | null = null;
    if (dto.url !== null) {
      const verdict = await checkWebhookUrl(dto.url, { allowLoopback: this.sandbox !== undefined });
      if (!verdict.ok) throw fail('BAD_REQUEST', `url is not allowed for webhooks: ${verdict.reason}`);
      url = verdict.url.toString();
    }
    await this.store.settings.setWebhookUrl(channel.key, url);
    await this.delivery.webhookChanged(channel.key, url);
    return this.view(principal, channel.key);
  }

  private async view(principal: Principal, channelKey: string): Promise<WebhookSettingsDto> {
    const settings = await this.store.settings.get(channelKey);
    return {
      ok: true,
      brand: channelKey,
      url: settings.webhookUrl === null || scopeAllows(principal.scope, 'BrandWrite') ? settings.webhookUrl : originOnly(settings.webhookUrl),
      ...(scopeAllows(principal.scope, 'Admin') ? { secret: settings.webhookSecret } : {}),
    };
  }
}

/** A webhook URL as a read-only key sees it: its path and query often hold the receiver's own secret. */
function originOnly(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname === '/' && parsed.search === '' ? `${parsed.origin}/` : `${parsed.origin}/…`;
}
