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

  /**
   * `field` names where the brand key came from (`brandKey` in bodies, `brand` in queries and uploads). A channel
   * that does not exist is answered as one of another brand, so that a key cannot learn which channel keys other
   * brands have; the answer lists the channels the key reaches, so a typo is still plain.
   */
  async channelFor(principal: Principal, brandKey: string, field = 'brandKey'): Promise<ChannelRecord> {
    const channel = await this.find(brandKey);
    if (channel && principal.brandIds.includes(channel.brandId)) return channel;
    throw fail('FORBIDDEN', `this key has no access to ${field} "${brandKey}": ${await this.reachable(principal)}`);
  }

  /** The channels a key reaches, for the refusal only (never on the way of an allowed request). */
  private async reachable(principal: Principal): Promise<string> {
    const keys = (await this.store.directory.listChannels()).filter((c) => principal.brandIds.includes(c.brandId)).map((c) => c.key);
    return keys.length > 0 ? `its channels are ${keys.join(', ')}` : 'it reaches no channel';
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
