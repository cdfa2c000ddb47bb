import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * Whether a header holds the secret, compared in constant time: both are hashed first, so neither the place
 * of the first difference nor the secret's length shows in the time taken.
 */
export function sameSecret(given: unknown, secret: string): boolean {
  return typeof given === 'string' && timingSafeEqual(digest(given), digest(secret));
}
