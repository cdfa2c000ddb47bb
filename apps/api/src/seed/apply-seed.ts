import { randomBytes } from 'node:crypto';
import type { Store } from '@brandwire/store';
import { senderKeyOf } from '@brandwire/upstream';
import { hashToken, newToken } from '../common/auth/api-keys.service';
import { type Seed, SeedError } from './seed-file';

function keyId(): string {
  return `key_${randomBytes(8).toString('hex')}`;
}

/** Applies a seed: brands, channels and keys are created or updated, never duplicated. */
export async function applySeed(store: Store, seed: Seed): Promise<void> {
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
  for (const key of seed.keys) {
    const unknown = key.brands.find((b) => !known.has(b));
    if (unknown) throw new SeedError(`key "${key.name}" names brand "${unknown}", which does not exist`);
    await store.directory.saveApiKey({ id: keyId(), tokenHash: hashToken(key.token), name: key.name, scope: key.scope, brandIds: key.brands });
  }
}

export interface DemoKeys {
  admin: string;
  agent: string;
}

export const DEMO_BRAND = 'demo';
export const DEMO_CHANNEL = 'demo-kakao';

/** On a first start without a seed: a demo brand with a Kakao-type channel, an Admin key and a BrandWrite key. */
export async function createDemoIfEmpty(store: Store): Promise<DemoKeys | undefined> {
  if ((await store.directory.countApiKeys()) > 0) return undefined;
  const keys = { admin: newToken(), agent: newToken() };
  await applySeed(store, {
    brands: [
      {
        id: DEMO_BRAND,
        name: 'Demo Brand',
        channels: [{ key: DEMO_CHANNEL, name: 'Demo Kakao', type: 'kakao', chatbotBuilder: true, plan: { consultations: 1000 } }],
      },
    ],
    keys: [
      { token: keys.admin, name: 'demo-admin', scope: 'Admin', brands: [DEMO_BRAND] },
      { token: keys.agent, name: 'demo-agent', scope: 'BrandWrite', brands: [DEMO_BRAND] },
    ],
  });
  return keys;
}
