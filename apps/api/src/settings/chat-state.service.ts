import { isUpstreamSuccess } from '@brandwire/domain';
import type { Store } from '@brandwire/store';
import type { MessengerPort } from '@brandwire/upstream';
import { Inject, Injectable } from '@nestjs/common';
import { MESSENGER, STORE } from '../app/tokens';
import { BrandAccessService } from '../common/auth/brand-access.service';
import type { Principal } from '../common/auth/principal';
import type { ChatStateResponseDto, ChatToggleResponseDto } from './dto/chat.dto';

/**
 * Chat on or off for a channel. The messenger is asked first; the state is stored only once it agreed, so a
 * refusal (HTTP 200, ok: false, the messenger's code) leaves both as they were. Never billed.
 */
@Injectable()
export class ChatStateService {
  constructor(
    private readonly access: BrandAccessService,
    @Inject(STORE) private readonly store: Store,
    @Inject(MESSENGER) private readonly messenger: MessengerPort,
  ) {}

  async get(principal: Principal, brand: string): Promise<ChatStateResponseDto> {
    const channel = await this.access.channelFor(principal, brand, 'brand');
    const { chatActive } = await this.store.settings.get(channel.key);
    return { ok: true, brand: channel.key, active: chatActive };
  }

  async set(principal: Principal, brandKey: string, active: boolean): Promise<ChatToggleResponseDto> {
    const channel = await this.access.channelFor(principal, brandKey);
    const result = active ? await this.messenger.activateChat(channel.senderKey) : await this.messenger.deactivateChat(channel.senderKey);
    if (!isUpstreamSuccess(result.code)) {
      const { chatActive } = await this.store.settings.get(channel.key);
      return { ok: false, code: result.code, message: result.message ?? 'the messenger refused the change', brand: channel.key, active: chatActive };
    }
    await this.store.settings.setChatActive(channel.key, active);
    return { ok: true, code: '0', message: null, brand: channel.key, active };
  }
}
