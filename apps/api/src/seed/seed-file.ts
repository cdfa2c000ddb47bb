import { type Scope, isScope } from '@brandwire/domain';

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

function object(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SeedError(`${path} must be an object`);
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

function channel(value: unknown, path: string): SeedChannel {
  const c = object(value, path);
  const plan = object(c['plan'] ?? { consultations: 1000 }, `${path}.plan`);
  const consultations = plan['consultations'];
  if (typeof consultations !== 'number' || !Number.isInteger(consultations) || consultations < 0) {
    throw new SeedError(`${path}.plan.consultations must be a whole number >= 0`);
  }
  const chatbotBuilder = c['chatbotBuilder'] ?? false;
  if (typeof chatbotBuilder !== 'boolean') throw new SeedError(`${path}.chatbotBuilder must be true or false`);
  return {
    key: text(c['key'], `${path}.key`),
    name: text(c['name'] ?? c['key'], `${path}.name`),
    type: text(c['type'], `${path}.type`, 40),
    chatbotBuilder,
    plan: { consultations },
  };
}

/** Reads and checks a seed document; every problem names its JSON path. */
export function parseSeed(raw: string, source: string): Seed {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new SeedError(`${source} is not valid JSON: ${(error as Error).message}`);
  }
  const root = object(json, source);
  const brands = array(root['brands'], 'brands').map((value, i): SeedBrand => {
    const b = object(value, `brands[${i}]`);
    return {
      id: text(b['id'], `brands[${i}].id`),
      name: text(b['name'] ?? b['id'], `brands[${i}].name`),
      channels: array(b['channels'], `brands[${i}].channels`).map((c, j) => channel(c, `brands[${i}].channels[${j}]`)),
    };
  });
  const keys = array(root['keys'], 'keys').map((value, i): SeedKey => {
    const k = object(value, `keys[${i}]`);
    const scope = k['scope'];
    if (!isScope(scope)) throw new SeedError(`keys[${i}].scope must be BrandRead, BrandWrite or Admin`);
    const token = text(k['token'], `keys[${i}].token`, 512);
    if (token.length < 16) throw new SeedError(`keys[${i}].token must be at least 16 characters`);
    return {
      token,
      name: text(k['name'], `keys[${i}].name`),
      scope,
      brands: array(k['brands'], `keys[${i}].brands`).map((b, j) => text(b, `keys[${i}].brands[${j}]`)),
    };
  });
  const channelKeys = brands.flatMap((b) => b.channels.map((c) => c.key));
  const duplicate = channelKeys.find((key, i) => channelKeys.indexOf(key) !== i);
  if (duplicate) throw new SeedError(`channel key ${duplicate} appears twice`);
  return { brands, keys };
}
