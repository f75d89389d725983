// Trial state, always computed from the database row and the clock, never stored.
import type { UserType } from '@mooz/contract/permissions';

export interface TrialState {
  is_trial: boolean;
  has_purchased: boolean;
  trial_ends_at: string | null;
  trial_remaining_seconds: number;
}

export function trialState(
  user: { userType: UserType; trialEndsAt: Date | null },
  hasPurchased: boolean,
  now: Date,
): TrialState {
  const endsAt = user.userType === 'student' ? user.trialEndsAt : null;
  const remaining = endsAt ? Math.max(0, Math.floor((endsAt.getTime() - now.getTime()) / 1000)) : 0;
  const inTrial = !!endsAt && !hasPurchased && remaining > 0;
  return {
    is_trial: inTrial,
    has_purchased: hasPurchased,
    trial_ends_at: endsAt ? endsAt.toISOString() : null,
    trial_remaining_seconds: inTrial ? remaining : 0,
  };
}
