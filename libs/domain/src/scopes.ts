/** Access scopes, in increasing order of power: each scope includes the ones before it. */
export const SCOPES = ['BrandRead', 'BrandWrite', 'Admin'] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(x: unknown): x is Scope {
  return typeof x === 'string' && (SCOPES as readonly string[]).includes(x);
}

/** True when a key granted `granted` may call an operation that requires `required`. */
export function scopeAllows(granted: Scope, required: Scope): boolean {
  return SCOPES.indexOf(granted) >= SCOPES.indexOf(required);
}
