import { randomBytes } from 'node:crypto';

/** Consonants only, no look-alikes with vowels, as RFC 8628 section 6.1 suggests: 20^8 ≈ 2^34.6 codes. */
const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const LENGTH = 8;
/** the largest multiple of the alphabet size below 256: bytes at or above it are drawn again (no modulo bias) */
const LIMIT = 256 - (256 % ALPHABET.length);

export function newUserCode(random: (n: number) => Buffer = randomBytes): string {
  let code = '';
  while (code.length < LENGTH) {
    for (const byte of random(LENGTH * 2)) {
      if (byte < LIMIT && code.length < LENGTH) code += ALPHABET[byte % ALPHABET.length];
    }
  }
  return code;
}

/** What a person typed ("bcdf-ghjk", "BCDF GHJK") as the stored form; undefined when it cannot be a code. */
export function normalizeUserCode(input: string): string | undefined {
  const code = input.toUpperCase().replace(/[\s-]/g, '');
  return code.length === LENGTH && [...code].every((c) => ALPHABET.includes(c)) ? code : undefined;
}

/** The form shown to people: two groups of four. */
export function displayUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}
