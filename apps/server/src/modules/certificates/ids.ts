// Certificate ids: random, unguessable (they open the public verification page and the PDF) and easy
// to read aloud or type: `certificateIdLength` characters of Crockford's base32 from crypto's random
// bytes (5 bits each: 16 characters carry 80 random bits).
import { randomBytes } from 'node:crypto';
import { certificateIdLength } from '@mooz/contract/certificates';

/** Crockford's base32: digits and letters without I, L, O and U. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function certificateId(): string {
  const bytes = randomBytes(Math.ceil((certificateIdLength * 5) / 8));
  let bits = 0;
  let value = 0;
  let id = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && id.length < certificateIdLength) {
      id += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return id;
}

/**
 * The id as stored, from what someone typed: case does not matter, hyphens and spaces are ignored, and
 * the letters Crockford reads as digits (O → 0, I and L → 1) are read so. Null when it cannot be an id.
 */
export function normaliseCertificateId(text: string): string | null {
  const id = text
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  if (id.length !== certificateIdLength) return null;
  for (const char of id) if (!ALPHABET.includes(char)) return null;
  return id;
}
