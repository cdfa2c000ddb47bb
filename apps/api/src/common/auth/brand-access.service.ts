import type { ChannelRecord, Store } from '@brandwire/store';
import { Inject, Injectable } from '@nestjs/common';
import { STORE } from '../../app/tokens';
import { fail } from '../errors/envelope';
import type { Principal } from './principal';

const CACHE_TTL_MS = 5_000;

/** Resolves a brand key to its channel and checks that the request's key was given that brand. */
@Injectable()
export class BrandAccessService {
  private readonly cache = new Map<string, { channel: ChannelRecord | undefined; until: number }>();

  constructor(@Inject(STORE) private readonly store: Store) {}

  /** `field` names where the brand key came from (`brandKey` in bodies, `brand` in queries and uploads). */
  async channelFor(principal: Principal, brandKey: string, field = 'brandKey'): Promise<ChannelRecord> {
    const channel = await this.find(brandKey);
    if (!channel) throw fail('UNKNOWN_BRAND', `${field} "${brandKey}" is not a channel of this service`);
    if (!principal.brandIds.includes(channel.brandId)) {
      throw fail('FORBIDDEN', `this key has no access to ${field} "${brandKey}" (brand ${channel.brandId})`);
    }
    return channel;
  }

  async findBySenderKey(senderKey: string): Promise<ChannelRecord | undefined> {
    return this.store.directory.findChannelBySenderKey(senderKey);
  }

  private async find(key: string): Promise<ChannelRecord | undefined> {
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && hit.until > now) return hit.channel;
    const channel = await this.store.directory.findChannel(key);
    if (this.cache.size > 1_000) this.cache.clear();
    this.cache.set(key, { channel, until: now + CACHE_TTL_MS });
    return channel;
  }
}
