import { isoWithOffset } from '@brandwire/domain';
import type { ListedApiKey, Store } from '@brandwire/store';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, STORE } from '../app/tokens';
import { ApiKeysService } from '../common/auth/api-keys.service';
import type { Principal } from '../common/auth/principal';
import { fail } from '../common/errors/envelope';
import type { Config } from '../config/config';
import { KeyRevocations } from './key-revocations';
import type { KeyDto, KeysResponseDto, RevokedKeyDto } from './dto/keys.dto';

/**
 * The keys an Admin key manages: those whose brands are all among its own (a key of a brand it was not given is
 * not its business, nor is its existence; nor is a key of no brand). Any key may revoke itself.
 */
@Injectable()
export class KeysService {
  constructor(
    @Inject(STORE) private readonly store: Store,
    @Inject(CONFIG) private readonly config: Config,
    private readonly keys: ApiKeysService,
    private readonly revocations: KeyRevocations,
  ) {}

  async list(principal: Principal): Promise<KeysResponseDto> {
    const keys = (await this.store.directory.listApiKeys()).filter((key) => manages(principal, key));
    return { ok: true, keys: keys.map((key) => this.toDto(key, principal)) };
  }

  async revoke(principal: Principal, id: string): Promise<RevokedKeyDto> {
    const self = id === principal.keyId;
    if (!self && principal.scope !== 'Admin') {
      throw fail('FORBIDDEN', `this key has scope ${principal.scope}: it may revoke only itself (its id is ${principal.keyId}); revoking another key needs an Admin key`);
    }
    const key = await this.store.directory.findApiKeyById(id);
    if (key === undefined || !manages(principal, key) || !(await this.store.directory.revokeApiKey(id))) {
      throw fail('NOT_FOUND', `no key ${JSON.stringify(id)} among the keys this key manages (GET /api/agent/keys lists them)`);
    }
    this.keys.forget(id);
    this.revocations.revoked(id);
    return { ok: true, id, name: key.name, revoked: true, self };
  }

  private toDto(key: ListedApiKey, principal: Principal): KeyDto {
    return { id: key.id, name: key.name, scope: key.scope, brands: key.brandIds, createdAt: isoWithOffset(key.createdMs, this.config.timeZone), current: key.id === principal.keyId };
  }
}

/** A key of no brand is no brand Admin's business: only it manages itself (the seed made it for an operator). */
function manages(principal: Principal, key: ListedApiKey): boolean {
  if (key.id === principal.keyId) return true;
  return principal.scope === 'Admin' && key.brandIds.length > 0 && key.brandIds.every((brand) => principal.brandIds.includes(brand));
}
