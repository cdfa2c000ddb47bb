import type { Store } from '@brandwire/store';
import { senderKeyOf } from '@brandwire/upstream';
import { hashToken, newKeyId } from '../common/auth/api-keys.service';
import { type Seed, SeedError } from './seed-file';

/**
 * Applies a seed: brands, channels and keys are created or updated, never duplicated. A key revoked since stays
 * revoked: the names of such keys are returned, for the operator to take them out of the seed.
 */
export async function applySeed(store: Store, seed: Seed): Promise<{ revokedKeys: string[] }> {
  for (const brand of seed.brands) {
    await store.directory.upsertBrand({ id: brand.id, name: brand.name });
    for (const c of brand.channels) {
      await store.directory.upsertChannel({
        key: c.key,
        brandId: brand.id,
        name: c.name,
        type: c.type,
        chatbotBuilder: c.chatbotBuilder,
        planConsultations: c.plan.consultations,
        senderKey: senderKeyOf(c.key),
      });
    }
  }
  const known = new Set((await store.directory.listBrands()).map((b) => b.id));
  const revokedKeys: string[] = [];
  for (const key of seed.keys) {
    const unknown = key.brands.find((b) => !known.has(b));
    if (unknown) throw new SeedError(`key "${key.name}" names brand "${unknown}", which does not exist`);
    const saved = await store.directory.saveApiKey({ id: newKeyId(), tokenHash: hashToken(key.token), name: key.name, scope: key.scope, brandIds: key.brands });
    if (saved === 'revoked') revokedKeys.push(key.name);
  }
  return { revokedKeys };
}
