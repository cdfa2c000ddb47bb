import { usageError } from './cli-error';

/** What `GET /api/agent/me` says of the key's brands that tells a brand id from a channel key. */
interface KeyBrands {
  brands: ReadonlyArray<{ id: string; channels: ReadonlyArray<{ key: string }> }>;
}

/**
 * The brands of a new key: the brand ids given with --brand, else every brand of this key. A channel key given for
 * a brand id (elsewhere --brand is the old name of --channel) is a usage error naming its brand, never mapped in
 * silence; any other value is left to the service, which refuses a brand this key lacks.
 */
export function brandsOfNewKey(given: readonly string[] | undefined, me: KeyBrands): string[] {
  if (given === undefined) return me.brands.map((brand) => brand.id);
  for (const value of given) {
    if (me.brands.some((brand) => brand.id === value)) continue;
    const owner = me.brands.find((brand) => brand.channels.some((channel) => channel.key === value));
    if (owner) {
      throw usageError(
        `--brand ${value} is a channel key, not a brand id: keys are made for brands, and ${value} belongs to brand ${owner.id}`,
        `pass --brand ${owner.id}; \`brandwire whoami\` lists the brands and their channels`,
      );
    }
  }
  return [...given];
}
