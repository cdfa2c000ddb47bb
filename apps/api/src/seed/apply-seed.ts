import { readFile } from 'node:fs/promises';
import type { Store } from '@brandwire/store';
import { senderKeyOf } from '@brandwire/upstream';
import { hashToken, newKeyId } from '../common/auth/api-keys.service';
import { type Seed, SeedError, parseSeed } from './seed-file';

/** Refuses a key naming a brand that is neither in the seed nor stored, before anything of the seed is written. */
async function refuseUnknownBrands(store: Store, seed: Seed): Promise<void> {
  const known = new Set([...seed.brands.map((b) => b.id), ...(await store.directory.listBrands()).map((b) => b.id)]);
  seed.keys.forEach((key, i) => {
    const j = key.brands.findIndex((b) => !known.has(b));
    if (j >= 0) throw new SeedError(`keys[${i}].brands[${j}] names brand "${key.brands[j]}", which is neither in the seed nor stored`);
  });
}

/**
 * Applies a seed: brands, channels and keys are created or updated, never duplicated. A key revoked since stays
 * revoked: the names of such keys are returned, for the operator to take them out of the seed. The seed is checked
 * whole (parseSeed, and its keys' brands here) before its first write; its writes are not one transaction.
 */
export async function applySeed(store: Store, seed: Seed): Promise<{ revokedKeys: string[] }> {
  await refuseUnknownBrands(store, seed);
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
  const revokedKeys: string[] = [];
  for (const key of seed.keys) {
    const saved = await store.directory.saveApiKey({ id: newKeyId(), tokenHash: hashToken(key.token), name: key.name, scope: key.scope, brandIds: key.brands });
    if (saved === 'revoked') revokedKeys.push(key.name);
  }
  return { revokedKeys };
}

/**
 * Applies the seed file BRANDWIRE_SEED names; a problem of it stops the start in one line naming the variable,
 * and the JSON path at fault. Whether the seed defines a brand, besides what applySeed returns.
 */
export async function applySeedFile(store: Store, file: string): Promise<{ revokedKeys: string[]; definesBrands: boolean }> {
  try {
    const seed = parseSeed(await readFile(file, 'utf8'));
    return { ...(await applySeed(store, seed)), definesBrands: seed.brands.length > 0 };
  } catch (error) {
    throw error instanceof SeedError ? new SeedError(`BRANDWIRE_SEED=${file}: ${error.message}`) : error;
  }
}
