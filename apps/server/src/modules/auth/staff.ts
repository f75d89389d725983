// Making teachers and admins from the command line (sign-up only makes students).
import { createUserBody } from '@mooz/contract/auth';
import type { Database } from '../../db/client';
import { createAuthService } from './service';
import { memoryRateLimiter } from '../../services/rate-limiter';
import { loadConfig } from '../../config';

export async function createStaffUser(db: Database, input: unknown) {
  const parsed = createUserBody.safeParse(input);
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  }
  const config = loadConfig();
  const auth = createAuthService({
    db,
    mailer: { send: async () => {} },
    limiter: memoryRateLimiter(),
    jwtSecret: 'unused-for-creating-users',
    accessTokenTtl: config.accessTokenTtl,
    refreshTokenTtl: config.refreshTokenTtl,
    trialDays: config.trialDays,
  });
  return (await auth.createUser(parsed.data)).data;
}
