// Response shapes of the contract, inferred from its zod schemas so the web app and server agree.
import type { z } from 'zod';
import type { tokenPair } from '@mooz/contract/auth';

export type TokenPairResponse = z.infer<typeof tokenPair>;
export type { User, LoginData, TrialStatus } from '@mooz/contract/auth';
