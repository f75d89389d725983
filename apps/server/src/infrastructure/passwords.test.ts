import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { passwordHashCost } from '../config';
import { hashPassword, verifyPassword } from './passwords';

describe('passwords', () => {
  it('hashes with argon2id at the cost the run names (the test cost here, set by vitest.config.ts)', async () => {
    const { memoryCost, timeCost } = passwordHashCost();
    expect(process.env.PASSWORD_HASH_COST).toBe('test');
    const hashed = await hashPassword('correct horse battery');
    expect(hashed.startsWith(`$argon2id$v=19$m=${memoryCost},t=${timeCost},p=1$`)).toBe(true);
    expect(await verifyPassword(hashed, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(hashed, 'correct horse battery!')).toBe(false);
  });

  it("verifies a hash made at OWASP's cost whatever the cost of the day, and refuses a malformed one", async () => {
    const stored = await hash('correct horse battery', { algorithm: 2, parallelism: 1, ...passwordHashCost({}) });
    expect(stored.startsWith('$argon2id$v=19$m=19456,t=2,p=1$')).toBe(true);
    expect(await verifyPassword(stored, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(stored, 'wrong')).toBe(false);
    expect(await verifyPassword('not a hash', 'correct horse battery')).toBe(false);
  });
});
