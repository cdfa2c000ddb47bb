import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * Whether a header holds the messenger's partner key (or another secret), compared in constant time: both are
 * hashed first, so neither the place of the first difference nor the secret's length shows in the time taken.
 * The sandbox checks the key its partner sends; the service checks the key on the messenger's callbacks.
 */
export function sameSecret(given: unknown, secret: string): boolean {
  return typeof given === 'string' && timingSafeEqual(digest(given), digest(secret));
}
