// Trial state, always computed from the database row and the clock, never stored. The one rule: a
// student is in trial from sign-up until `trial_ends_at`, whatever they buy meanwhile; buying sets
// `has_purchased` and never cuts the trial short. After it, only bought courses remain (classes/access.ts).
import { eq } from 'drizzle-orm';
import type { UserType } from '@mooz/contract/permissions';
import type { Database } from '../../db/client';
import { users } from '../../db/schema/index';

const DAY_MS = 86_400_000;

/** When a trial that starts at `start` ends: the one place this is computed. */
export function trialEndsAt(start: Date, trialDays: number): Date {
  return new Date(start.getTime() + trialDays * DAY_MS);
}

export interface TrialState {
  is_trial: boolean;
  has_purchased: boolean;
  trial_ends_at: string | null;
  trial_remaining_seconds: number;
}

type TrialUser = { userType: UserType; trialEndsAt: Date | null };

/** Whole seconds of trial left at `now`: 0 for non-students and once the end date has passed. */
function trialSecondsLeft(user: TrialUser, now: Date): number {
  const endsAt = user.userType === 'student' ? user.trialEndsAt : null;
  return endsAt ? Math.max(0, Math.floor((endsAt.getTime() - now.getTime()) / 1000)) : 0;
}

export function trialState(user: TrialUser, hasPurchased: boolean, now: Date): TrialState {
  const endsAt = user.userType === 'student' ? user.trialEndsAt : null;
  const remaining = trialSecondsLeft(user, now);
  return {
    is_trial: remaining > 0,
    has_purchased: hasPurchased,
    trial_ends_at: endsAt ? endsAt.toISOString() : null,
    trial_remaining_seconds: remaining,
  };
}

/** Whether a student is inside their trial right now (purchases or not: only the end date ends it). */
export async function isInTrial(db: Database, userId: number, now: Date = new Date()): Promise<boolean> {
  const [row] = await db
    .select({ userType: users.userType, trialEndsAt: users.trialEndsAt })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) return false;
  return trialSecondsLeft(row, now) > 0;
}
