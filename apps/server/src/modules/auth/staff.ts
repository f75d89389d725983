// Making teachers and admins from the command line (sign-up only makes students).
import { createUserBody } from '@mooz/contract/auth';
import type { Database } from '../../db/client';
import { loadConfig } from '../../config';
import { createActiveUser } from './users';
import { presentUser } from './presenter';

export async function createStaffUser(db: Database, input: unknown) {
  const parsed = createUserBody.safeParse(input);
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  }
  const row = await createActiveUser(db, parsed.data, { trialDays: loadConfig().trialDays });
  return presentUser(row, false, new Date());
}
