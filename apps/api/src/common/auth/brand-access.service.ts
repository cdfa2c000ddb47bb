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
      throw fail('FORBIDDEN', `this key has no access to ${field} "${brandKey}"`);
    }
    return channel;
  }

  /** The channel of a messenger callback, which names it by sender key. */
  findBySenderKey(senderKey: string): Promise<ChannelRecord | undefined> {
    return this.cached(`sender:${senderKey}`, () => this.store.directory.findChannelBySenderKey(senderKey));
  }

  private find(key: string): Promise<ChannelRecord | undefined> {
    return this.cached(`key:${key}`, () => this.store.directory.findChannel(key));
  }

  private async cached(cacheKey: string, load: () => Promise<ChannelRecord | undefined>): Promise<ChannelRecord | undefined> {
    const now = Date.now();
    const hit = this.cache.get(cacheKey);
    if (hit && hit.until > now) return hit.channel;
    const channel = await load();
    if (this.cache.size > 1_000) this.cache.clear();
    this.cache.set(cacheKey, { channel, until: now + CACHE_TTL_MS });
    return channel;
  }
}
