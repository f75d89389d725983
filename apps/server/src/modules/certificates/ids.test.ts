import { describe, expect, it } from 'vitest';
import { certificateIdLength } from '@mooz/contract/certificates';
import { certificateId, normaliseCertificateId } from './ids';

describe('certificate ids', () => {
  it('are 16 Crockford base32 characters, every character used, never twice the same', () => {
    const ids = Array.from({ length: 2000 }, certificateId);
    for (const id of ids) expect(id).toMatch(new RegExp(`^[0-9A-HJKMNP-TV-Z]{${certificateIdLength}}$`));
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.join('')).size).toBe(32);
  });

  it('are read back whatever the case, hyphens and look-alike letters; anything else is not an id', () => {
    const id = certificateId();
    expect(normaliseCertificateId(id.toLowerCase())).toBe(id);
    expect(normaliseCertificateId(`${id.slice(0, 8)}-${id.slice(8)}`)).toBe(id);
    expect(normaliseCertificateId('O1IL0000AAAABBBB')).toBe('0111' + '0000AAAABBBB');
    expect(normaliseCertificateId('UUUUUUUUUUUUUUUU')).toBeNull();
    expect(normaliseCertificateId(id.slice(1))).toBeNull();
    expect(normaliseCertificateId(`${id}0`)).toBeNull();
    expect(normaliseCertificateId('../../etc/passwd')).toBeNull();
    expect(normaliseCertificateId('')).toBeNull();
  });
});
