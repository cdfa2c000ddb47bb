import { Inject, Injectable } from '@nestjs/common';
import { SANDBOX } from '../app/tokens';
import { BrandAccessService } from '../common/auth/brand-access.service';
import type { Principal } from '../common/auth/principal';
import { fail } from '../common/errors/envelope';
import type { SandboxLink } from '../sandbox/sandbox-link';
import { DEFAULT_SYSTEM_MESSAGES } from './default-system-messages';
import type { SystemMessagesResponseDto } from './dto/system-messages.dto';

/** The texts the messenger shows customers on its own: read from the sandbox messenger, else the service's defaults. */
@Injectable()
export class SystemMessagesService {
  constructor(
    private readonly access: BrandAccessService,
    @Inject(SANDBOX) private readonly sandbox: SandboxLink | undefined,
  ) {}

  async get(principal: Principal, brand: string): Promise<SystemMessagesResponseDto> {
    const channel = await this.access.channelFor(principal, brand, 'brand');
    if (!this.sandbox) return { ok: true, brand: channel.key, source: 'service', messages: DEFAULT_SYSTEM_MESSAGES };
    const info = await this.sandbox.control.channel(channel.senderKey);
    if (!info.ok) throw fail('UPSTREAM_UNAVAILABLE', `the sandbox messenger has no settings for this channel: ${info.code} ${info.message}`);
    return { ok: true, brand: channel.key, source: 'messenger', messages: info.systemMessages };
  }
}
