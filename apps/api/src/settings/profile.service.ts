import type { Store } from '@brandwire/store';
import { Inject, Injectable } from '@nestjs/common';
import { STORE } from '../app/tokens';
import { BrandAccessService } from '../common/auth/brand-access.service';
import type { Principal } from '../common/auth/principal';
import type { ProfileResponseDto } from './dto/profile.dto';

/** The channel's sender profile: its identity in the directory and whether it takes consultations. */
@Injectable()
export class ProfileService {
  constructor(
    private readonly access: BrandAccessService,
    @Inject(STORE) private readonly store: Store,
  ) {}

  async get(principal: Principal, brand: string): Promise<ProfileResponseDto> {
    const channel = await this.access.channelFor(principal, brand, 'brand');
    const settings = await this.store.settings.get(channel.key);
    return {
      ok: true,
      brand: channel.key,
      profile: {
        senderKey: channel.senderKey,
        name: channel.name,
        brandId: channel.brandId,
        type: channel.type,
        chatbotBuilder: channel.chatbotBuilder,
        status: settings.chatActive ? 'active' : 'inactive',
      },
    };
  }
}
