/** How deep a request's JSON may nest: far more than any envelope needs, far less than recursive code can take. */
export const MAX_JSON_DEPTH = 64;

/** Whether a parsed JSON value nests objects or arrays deeper than `max`; walks without recursion. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [next, depth] = pending.pop() as [unknown, number];
    if (typeof next !== 'object' || next === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(next)) if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
  }
  return false;
}
