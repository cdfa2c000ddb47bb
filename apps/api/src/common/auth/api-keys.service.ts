import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Scope } from '@brandwire/domain';
import type { Store } from '@brandwire/store';
import { STORE } from '../../app/tokens';
import { fail } from '../errors/envelope';
import type { Principal } from './principal';

const CACHE_TTL_MS = 5_000;
const CACHE_MAX = 10_000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new key's id: `key_` and 16 hex digits, what lists and revocations name it by (no secret). */
export function newKeyId(): string {
  return `key_${randomBytes(8).toString('hex')}`;
}

/** What a new key is given. */
export interface KeyGrant {
  name: string;
  scope: Scope;
  brandIds: string[];
}

/** Stores a new key under `id`; its token is returned, to be shown once: only its hash is kept. */
export async function storeNewKey(store: Store, id: string, grant: KeyGrant): Promise<string> {
  const token = newToken();
  await store.directory.saveApiKey({ id, tokenHash: hashToken(token), name: grant.name, scope: grant.scope, brandIds: grant.brandIds });
  return token;
}

/** A granting key gives only brands it has itself: FORBIDDEN naming the others. */
export function refuseBrandsOutside(principal: Principal, brands: readonly string[], granting: string): void {
  const outside = brands.filter((b) => !principal.brandIds.includes(b));
  if (outside.length > 0) throw fail('FORBIDDEN', `${granting} has no access to brand ${outside.map((b) => `"${b}"`).join(', ')}`);
}

/** A new bearer token: `bw_` and 32 random base62-ish characters (192 bits). */
export function newToken(): string {
  return `bw_${randomBytes(24).toString('base64url')}`;
}

/**
 * Finds the key behind a bearer token; tokens are stored only as SHA-256 hashes. Lookups are cached briefly; a key
 * revoked here is refused at once, also by a lookup that was under way while it was revoked.
 */
@Injectable()
export class ApiKeysService {
  private readonly cache = new Map<string, { principal: Principal | undefined; until: number }>();
  /** keys revoked by this instance: for good, so a few ids at most */
  private readonly revokedHere = new Set<string>();

  constructor(@Inject(STORE) private readonly store: Store) {}

  async authenticate(token: string): Promise<Principal | undefined> {
    const hash = hashToken(token);
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.until > now) return this.unlessRevoked(cached.principal);
    const key = await this.store.directory.findApiKeyByHash(hash);
    const principal = this.unlessRevoked(key && { keyId: key.id, name: key.name, scope: key.scope, brandIds: key.brandIds });
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(hash, { principal, until: now + CACHE_TTL_MS });
    return principal;
  }

  /** A key revoked here is refused from the next request on (other instances take up to the cache's 5 s). */
  forget(keyId: string): void {
    this.revokedHere.add(keyId);
    for (const [hash, entry] of this.cache) if (entry.principal?.keyId === keyId) this.cache.delete(hash);
  }

  isRevokedHere(keyId: string): boolean {
    return this.revokedHere.has(keyId);
  }

  private unlessRevoked(principal: Principal | undefined): Principal | undefined {
    return principal !== undefined && this.revokedHere.has(principal.keyId) ? undefined : principal;
  }
}
