import { types } from 'node:util';

/** The message of anything thrown; errors of node's own realm count too (they fail `instanceof Error` under Jest). */
export function messageOf(err: unknown): string {
  return types.isNativeError(err) ? err.message : String(err);
}
