import { type Scope, controlCharactersMessage, hasControlCharacter, isScope } from '@brandwire/domain';

export interface SeedChannel {
  key: string;
  name: string;
  type: string;
  chatbotBuilder: boolean;
  plan: { consultations: number };
}

export interface SeedBrand {
  id: string;
  name: string;
  channels: SeedChannel[];
}

export interface SeedKey {
  token: string;
  name: string;
  scope: Scope;
  brands: string[];
}

export interface Seed {
  brands: SeedBrand[];
  keys: SeedKey[];
}

export class SeedError extends Error {}

type Json = Record<string, unknown>;

/** A field of no meaning to the seed that JSON tooling writes: `$schema`, `_comment` and the like. */
const ANNOTATION = /^[$_]/;

/**
 * An object of the seed, refused when it holds a field it does not know (a misspelt one would be ignored silently);
 * annotations (fields starting with `$` or `_`) are passed over.
 */
function object(value: unknown, path: string, kind: string, fields: readonly string[]): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SeedError(`${path} must be an object`);
  const unknown = Object.keys(value).find((field) => !fields.includes(field) && !ANNOTATION.test(field));
  if (unknown !== undefined) {
    const where = path === '' ? unknown : `${path}.${unknown}`;
    throw new SeedError(`${where} is not a field of ${kind} (its fields: ${fields.join(', ')})`);
  }
  return value as Json;
}

function array(value: unknown, path: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new SeedError(`${path} must be an array`);
  return value;
}

function text(value: unknown, path: string, max = 200): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) throw new SeedError(`${path} must be a non-empty string of at most ${max} characters`);
  return value;
}

/** A brand id, channel key or key name: the API refuses control characters in them, and so does the seed. */
function identifier(value: unknown, path: string): string {
  const checked = text(value, path);
  if (hasControlCharacter(checked)) throw new SeedError(controlCharactersMessage(path));
  return checked;
}

/** Refuses a value that appears twice, naming both places (`describe` words the refusal without showing the value where it is a secret). */
function refuseRepeats<T>(entries: readonly T[], valueOf: (entry: T) => string, describe: (entry: T, first: T) => string): void {
  const seen = new Map<string, T>();
  for (const entry of entries) {
    const first = seen.get(valueOf(entry));
    if (first !== undefined) throw new SeedError(describe(entry, first));
    seen.set(valueOf(entry), entry);
  }
}

function channel(value: unknown, path: string): SeedChannel {
  const c = object(value, path, 'a channel', ['key', 'name', 'type', 'chatbotBuilder', 'plan']);
  const plan = object(c['plan'] ?? { consultations: 1000 }, `${path}.plan`, 'a plan', ['consultations']);
  const consultations = plan['consultations'];
  if (typeof consultations !== 'number' || !Number.isInteger(consultations) || consultations < 0) {
    throw new SeedError(`${path}.plan.consultations must be a whole number >= 0`);
  }
  const chatbotBuilder = c['chatbotBuilder'] ?? false;
  if (typeof chatbotBuilder !== 'boolean') throw new SeedError(`${path}.chatbotBuilder must be true or false`);
  return {
    key: identifier(c['key'], `${path}.key`),
    name: text(c['name'] ?? c['key'], `${path}.name`),
    type: text(c['type'], `${path}.type`, 40),
    chatbotBuilder,
    plan: { consultations },
  };
}

function brand(value: unknown, path: string): SeedBrand {
  const b = object(value, path, 'a brand', ['id', 'name', 'channels']);
  return {
    id: identifier(b['id'], `${path}.id`),
    name: text(b['name'] ?? b['id'], `${path}.name`),
    channels: array(b['channels'], `${path}.channels`).map((c, j) => channel(c, `${path}.channels[${j}]`)),
  };
}

function key(value: unknown, path: string): SeedKey {
  const k = object(value, path, 'a key', ['token', 'name', 'scope', 'brands']);
  const scope = k['scope'];
  if (!isScope(scope)) throw new SeedError(`${path}.scope must be BrandRead, BrandWrite or Admin`);
  const token = text(k['token'], `${path}.token`, 512);
  if (token.length < 16) throw new SeedError(`${path}.token must be at least 16 characters`);
  const brands = array(k['brands'], `${path}.brands`).map((b, j) => identifier(b, `${path}.brands[${j}]`));
  refuseRepeats(brands, (b) => b, (b) => `${path}.brands lists "${b}" twice`);
  return { token, name: identifier(k['name'], `${path}.name`), scope, brands };
}

/** Reads and checks a seed document, all of it before anything is stored; every problem names its JSON path. */
export function parseSeed(raw: string): Seed {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new SeedError(`the seed is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new SeedError('the seed must be a JSON object');
  const root = object(json, '', 'the seed', ['brands', 'keys']);
  const brands = array(root['brands'], 'brands').map((value, i) => ({ path: `brands[${i}]`, brand: brand(value, `brands[${i}]`) }));
  refuseRepeats(brands, (b) => b.brand.id, (b, first) => `${b.path}.id "${b.brand.id}" is the id of ${first.path} too`);
  const channels = brands.flatMap((b) => b.brand.channels.map((c, j) => ({ path: `${b.path}.channels[${j}]`, key: c.key })));
  refuseRepeats(channels, (c) => c.key, (c, first) => `${c.path}.key "${c.key}" is the key of ${first.path} too`);
  const keys = array(root['keys'], 'keys').map((value, i) => ({ path: `keys[${i}]`, key: key(value, `keys[${i}]`) }));
  refuseRepeats(keys, (k) => k.key.token, (k, first) => `${k.path}.token is the token of ${first.path} too: each key needs a token of its own`);
  return { brands: brands.map((b) => b.brand), keys: keys.map((k) => k.key) };
}
