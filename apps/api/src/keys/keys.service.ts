import { isoWithOffset } from '@brandwire/domain';
import type { ListedApiKey, Store } from '@brandwire/store';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, STORE } from '../app/tokens';
import { ApiKeysService, newKeyId, refuseBrandsOutside, storeNewKey } from '../common/auth/api-keys.service';
import type { Principal } from '../common/auth/principal';
import { fail } from '../common/errors/envelope';
import type { Config } from '../config/config';
import { KeyRevocations } from './key-revocations';
import type { CreatedKeyDto, CreateKeyDto, KeyDto, KeysResponseDto, RevokedKeyDto } from './dto/keys.dto';

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

  /** A new key of some of the creating Admin key's brands; its token is in this answer only. */
  async create(principal: Principal, dto: CreateKeyDto): Promise<CreatedKeyDto> {
    refuseBrandsOutside(principal, dto.brands, 'this key');
    const id = newKeyId();
    const token = await storeNewKey(this.store, id, { name: dto.name, scope: dto.scope, brandIds: [...new Set(dto.brands)].sort() });
    const key = await this.store.directory.findApiKeyById(id);
    if (key === undefined) throw new Error(`the key ${id} just made is not found`);
    return { ok: true, ...this.toDto(key, principal), token };
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
