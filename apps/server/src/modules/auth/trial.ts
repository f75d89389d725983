// Trial state, always computed from the database row and the clock, never stored.
import { eq } from 'drizzle-orm';
import type { UserType } from '@mooz/contract/permissions';
import type { Database } from '../../db/client';
import { users } from '../../db/schema/index';
import { hasPurchased } from '../courses';

const DAY_MS = 86_400_000;

/** When a trial that starts at `start` ends: the one place this is computed. */
export function trialEndsAt(start: Date, trialDays: number): Date {
  return new Date(start.getTime() + trialDays * DAY_MS);
}

interface TrialState {
  is_trial: boolean;
  has_purchased: boolean;
  trial_ends_at: string | null;
  trial_remaining_seconds: number;
}

type TrialAccount = { userType: UserType; trialEndsAt: Date | null };

const trialEnd = (user: TrialAccount) => (user.userType === 'student' ? user.trialEndsAt : null);
const secondsLeft = (endsAt: Date, now: Date) => Math.max(0, Math.floor((endsAt.getTime() - now.getTime()) / 1000));

/** Whether the account is in its trial at `now`, the one place of the rule (the sessions list asks it at every request). */
export function inTrial(user: TrialAccount, hasPurchased: boolean, now: Date): boolean {
  const endsAt = trialEnd(user);
  return !!endsAt && !hasPurchased && secondsLeft(endsAt, now) > 0;
}

export function trialState(user: TrialAccount, hasPurchased: boolean, now: Date): TrialState {
  const endsAt = trialEnd(user);
  const trial = inTrial(user, hasPurchased, now);
  return {
    is_trial: trial,
    has_purchased: hasPurchased,
    trial_ends_at: endsAt ? endsAt.toISOString() : null,
    trial_remaining_seconds: trial && endsAt ? secondsLeft(endsAt, now) : 0,
  };
}

/** Whether a student is inside their trial right now (false for anyone who has purchased). */
export async function isInTrial(db: Database, userId: number, now: Date = new Date()): Promise<boolean> {
  const [row] = await db
    .select({ userType: users.userType, trialEndsAt: users.trialEndsAt })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) return false;
  return inTrial(row, await hasPurchased(db, userId), now);
}
