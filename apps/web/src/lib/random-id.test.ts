import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomId } from './random-id';

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('randomId', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is a version-4 UUID from crypto.randomUUID where the page has it', () => {
    expect(randomId()).toMatch(uuidV4);
  });

  it('is still a fresh version-4 UUID in a page without crypto.randomUUID (plain http over the LAN)', () => {
    const { getRandomValues } = crypto;
    vi.stubGlobal('crypto', { getRandomValues: getRandomValues.bind(crypto) });
    const ids = Array.from({ length: 200 }, () => randomId());
    for (const id of ids) expect(id).toMatch(uuidV4);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
