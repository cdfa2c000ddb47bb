/** Keys that name an object's prototype machinery: never a field of any request, and dangerous to copy. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The path (`a.b.0.__proto__`) of the first `__proto__`, `constructor` or `prototype` key anywhere in a parsed JSON
 * value, else undefined; walks without recursion. `JSON.parse` keeps such keys as plain own properties, which
 * class-transformer then drops before validation sees them, so they would slip past the refusal of unknown fields.
 * The walk looks at keys only (a large array of numbers costs a loop); paths are built only once one is found.
 */
export function forbiddenKeyPath(value: unknown): string | undefined {
  return holdsForbiddenKey(value) ? pathToForbiddenKey(value) : undefined;
}

function holdsForbiddenKey(value: unknown): boolean {
  const pending: object[] = typeof value === 'object' && value !== null ? [value] : [];
  while (pending.length > 0) {
    const next = pending.pop() as object;
    if (Array.isArray(next)) {
      for (let i = 0; i < next.length; i++) {
        const child: unknown = next[i];
        if (typeof child === 'object' && child !== null) pending.push(child);
      }
      continue;
    }
    for (const key of Object.keys(next)) {
      if (FORBIDDEN_KEYS.has(key)) return true;
      const child: unknown = (next as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) pending.push(child);
    }
  }
  return false;
}

function pathToForbiddenKey(value: unknown): string | undefined {
  const pending: Array<[unknown, string]> = [[value, '']];
  while (pending.length > 0) {
    const [next, path] = pending.pop() as [unknown, string];
    if (typeof next !== 'object' || next === null) continue;
    for (const [key, child] of Object.entries(next)) {
      const childPath = path ? `${path}.${key}` : key;
      if (FORBIDDEN_KEYS.has(key) && !Array.isArray(next)) return childPath;
      if (typeof child === 'object' && child !== null) pending.push([child, childPath]);
    }
  }
  return undefined;
}
