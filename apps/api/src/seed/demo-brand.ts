import type { Store } from '@brandwire/store';
import { newToken } from '../common/auth/api-keys.service';
import { applySeed } from './apply-seed';

export interface DemoKeys {
  admin: string;
  agent: string;
}

export const DEMO_BRAND = 'demo';
export const DEMO_CHANNEL = 'demo-kakao';

/**
 * On a start without a seed and without any key yet: the demo brand with a Kakao-type channel (made again, the
 * same, by every start until its keys are stored). Whether the demo keys are still to be made.
 */
export async function prepareDemoBrand(store: Store): Promise<boolean> {
  if ((await store.directory.countApiKeys()) > 0) return false;
  await applySeed(store, {
    brands: [
      {
        id: DEMO_BRAND,
        name: 'Demo Brand',
        channels: [{ key: DEMO_CHANNEL, name: 'Demo Kakao', type: 'kakao', chatbotBuilder: true, plan: { consultations: 1000 } }],
      },
    ],
    keys: [],
  });
  return true;
}

/** New tokens for the demo brand's Admin and BrandWrite keys, not stored yet. */
export function newDemoKeys(): DemoKeys {
  return { admin: newToken(), agent: newToken() };
}

/** Stores the demo keys (by their hashes): from now on they work, and no later start makes others. */
export async function saveDemoKeys(store: Store, keys: DemoKeys): Promise<void> {
  await applySeed(store, {
    brands: [],
    keys: [
      { token: keys.admin, name: 'demo-admin', scope: 'Admin', brands: [DEMO_BRAND] },
      { token: keys.agent, name: 'demo-agent', scope: 'BrandWrite', brands: [DEMO_BRAND] },
    ],
  });
}
