// Response shapes of the contract, inferred from its zod schemas so the web app and server agree.
import type { z } from 'zod';
import type { profilePatchBody, tokenPair } from '@mooz/contract/auth';

export type TokenPairResponse = z.infer<typeof tokenPair>;
/** What `PATCH /api/auth/profile/` may change. */
export type ProfilePatch = z.infer<typeof profilePatchBody>;
export type { User, LoginData, TrialStatus } from '@mooz/contract/auth';
