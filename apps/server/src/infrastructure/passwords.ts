// argon2id at the cost config.ts's passwordHashCost() names: OWASP's recommended one unless a test run asks.
import { hash, verify, type Algorithm, type Options } from '@node-rs/argon2';
import { passwordHashCost } from '../config';

let options: Options | undefined;
// Read at the first hash, not at import: a bad PASSWORD_HASH_COST is then told by loadConfig at start.
// 2 is Algorithm.Argon2id (a const enum, which isolated modules cannot read).
const hashOptions = () => (options ??= { algorithm: 2 as Algorithm, parallelism: 1, ...passwordHashCost() });

export const hashPassword = (password: string) => hash(password, hashOptions());

/** Checks against the cost the hash was made with (it names it), whatever the cost is today. */
export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}
