/** Keys that name an object's prototype machinery: never a field of any request, and dangerous to copy. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The path (`a.b.0.__proto__`) of the first `__proto__`, `constructor` or `prototype` key anywhere in a parsed JSON
 * value, else undefined; walks without recursion. `JSON.parse` keeps such keys as plain own properties, which
 * class-transformer then drops before validation sees them, so they would slip past the refusal of unknown fields.
 */
export function forbiddenKeyPath(value: unknown): string | undefined {
  const pending: Array<[unknown, string]> = [[value, '']];
  while (pending.length > 0) {
    const [next, path] = pending.pop() as [unknown, string];
    if (typeof next !== 'object' || next === null) continue;
    for (const [key, child] of Object.entries(next)) {
      const childPath = path ? `${path}.${key}` : key;
      if (FORBIDDEN_KEYS.has(key)) return childPath;
      if (typeof child === 'object' && child !== null) pending.push([child, childPath]);
    }
  }
  return undefined;
}
