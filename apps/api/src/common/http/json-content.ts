/** Keys that name an object's prototype machinery: never a field of any request, and dangerous to copy. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * What a parsed JSON body may not hold anywhere:
 * - a `__proto__`, `constructor` or `prototype` key: `JSON.parse` keeps such keys as plain own properties, which
 *   class-transformer then drops before validation sees them, so they would slip past the refusal of unknown fields;
 * - a string with a lone UTF-16 surrogate (`"\ud800"` is valid JSON but no text): the customer would be sent one
 *   thing and the journal, which stores UTF-8, would keep another, so a delete by that text could never find it.
 */
export type JsonDefect = { path: string; problem: 'forbidden-key' | 'lone-surrogate' };

const wellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * The first defect in a parsed JSON value, with its path (`a.b.0.__proto__`), else undefined. The walk has no
 * recursion and builds no path unless it finds one: a large array of numbers costs a loop.
 */
export function jsonDefect(value: unknown): JsonDefect | undefined {
  return holdsDefect(value) ? locateDefect(value) : undefined;
}

function holdsDefect(value: unknown): boolean {
  if (typeof value === 'string') return !wellFormed(value);
  const pending: object[] = typeof value === 'object' && value !== null ? [value] : [];
  while (pending.length > 0) {
    const next = pending.pop() as object;
    if (Array.isArray(next)) {
      for (let i = 0; i < next.length; i++) {
        const child: unknown = next[i];
        if (typeof child === 'object' && child !== null) pending.push(child);
        else if (typeof child === 'string' && !wellFormed(child)) return true;
      }
      continue;
    }
    for (const key of Object.keys(next)) {
      if (FORBIDDEN_KEYS.has(key) || !wellFormed(key)) return true;
      const child: unknown = (next as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) pending.push(child);
      else if (typeof child === 'string' && !wellFormed(child)) return true;
    }
  }
  return false;
}

function locateDefect(value: unknown): JsonDefect | undefined {
  const pending: Array<[unknown, string]> = [[value, '']];
  while (pending.length > 0) {
    const [next, path] = pending.pop() as [unknown, string];
    if (typeof next === 'string' && !wellFormed(next)) return { path, problem: 'lone-surrogate' };
    if (typeof next !== 'object' || next === null) continue;
    for (const [key, child] of Object.entries(next)) {
      const childPath = path ? `${path}.${key}` : key;
      if (!Array.isArray(next) && (FORBIDDEN_KEYS.has(key) || !wellFormed(key))) return { path: childPath, problem: FORBIDDEN_KEYS.has(key) ? 'forbidden-key' : 'lone-surrogate' };
      pending.push([child, childPath]);
    }
  }
  return undefined;
}

/** What is wrong, for a client: `root` names where the JSON came from when it is not the request body (`rich`). */
export function describeJsonDefect(defect: JsonDefect, root?: string): string {
  const path = root === undefined ? defect.path : defect.path === '' ? root : `${root}.${defect.path}`;
  if (defect.problem === 'forbidden-key') return `property ${path} should not exist`;
  return `${path === '' ? 'the request body' : path} is not well-formed Unicode: it holds a lone UTF-16 surrogate (an escape such as \\ud800 without its pair)`;
}
