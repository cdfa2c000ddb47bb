/** How deep a request's JSON may nest: far more than any envelope needs, far less than recursive code can take. */
export const MAX_JSON_DEPTH = 64;

/** Whether a parsed JSON value nests objects or arrays deeper than `max`; walks without recursion. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: Array<[object, number]> = typeof value === 'object' && value !== null ? [[value, 1]] : [];
  while (pending.length > 0) {
    const [next, depth] = pending.pop() as [object, number];
    if (depth > max) return true;
    // an index loop: Object.values would copy a large array of numbers first
    const children: readonly unknown[] = Array.isArray(next) ? next : Object.values(next);
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
    }
  }
  return false;
}
