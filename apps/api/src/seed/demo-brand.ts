import { type FirstStartLock, type Store, type StoreOptions, lockFirstStart } from '@brandwire/store';
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
async function prepareDemoBrand(store: Store): Promise<boolean> {
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

/**
 * On a start without a seed: prepares the demo brand and, when the demo keys are still to be made, returns the lock
 * to hold until they are stored (or the start fails). Instances starting together on one PostgreSQL database wait
 * here for each other, so the first makes, shows and stores the keys and the others find them stored.
 */
export async function claimDemoKeys(store: Store, storage: StoreOptions): Promise<FirstStartLock | undefined> {
  const lock = await lockFirstStart(storage);
  let wanted = false;
  try {
    wanted = await prepareDemoBrand(store);
  } finally {
    if (!wanted) await lock.release();
  }
  return wanted ? lock : undefined;
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
