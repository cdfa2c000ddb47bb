import type { Store } from '@brandwire/store';

/** The brands no Admin key reaches: nobody can change their settings or approve pairings for them. */
export async function brandsWithoutAdmin(store: Store): Promise<string[]> {
  const [brands, keys] = await Promise.all([store.directory.listBrands(), store.directory.listApiKeys()]);
  const reached = new Set(keys.filter((key) => key.scope === 'Admin').flatMap((key) => key.brandIds));
  return brands.map((brand) => brand.id).filter((id) => !reached.has(id));
}
