// The sessions list keeps one answer per scope key (sessions/service.ts): two callers may share an answer
// only when their scopes see the same sessions, and the trial's part of a scope follows the trial rule.
import { describe, expect, it } from 'vitest';
import { inTrial, trialState } from '../auth/trial';
import { scopeFrom, scopeKey, type Purchase, type SessionScope } from './access';

const scope = (over: Partial<Extract<SessionScope, { all: false }>> = {}): SessionScope => ({
  all: false,
  wholeCourseIds: [],
  batches: [],
  openEverywhere: false,
  ...over,
});

describe('scopeKey', () => {
  it('is the same for the same scope, whoever it is for', () => {
    const a = scope({ wholeCourseIds: [3], batches: [{ courseId: 1, batchId: 7 }] });
    const b = scope({ wholeCourseIds: [3], batches: [{ courseId: 1, batchId: 7 }] });
    expect(scopeKey(a)).toBe(scopeKey(b));
    expect(scopeKey({ all: true })).toBe(scopeKey({ all: true }));
  });

  it('differs wherever the sessions seen differ', () => {
    const keys = [
      { all: true } as const,
      scope(),
      scope({ openEverywhere: true }),
      scope({ wholeCourseIds: [1] }),
      scope({ wholeCourseIds: [1, 2] }),
      scope({ wholeCourseIds: [12] }),
      scope({ batches: [{ courseId: 1, batchId: 2 }] }),
      scope({ batches: [{ courseId: 1, batchId: 2 }, { courseId: 1, batchId: 3 }] }),
      scope({ wholeCourseIds: [1], batches: [{ courseId: 2, batchId: 3 }] }),
      // The same numbers, in the other list: one course's whole sessions are not one batch's.
      scope({ wholeCourseIds: [2], batches: [{ courseId: 1, batchId: 1 }] }),
      scope({ wholeCourseIds: [1], batches: [{ courseId: 2, batchId: 2 }] }),
      scope({ openEverywhere: true, wholeCourseIds: [1] }),
    ].map(scopeKey);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('a student’s scope and the trial', () => {
  const now = new Date('2026-11-27T10:00:00Z');
  const facts = (trialEndsAt: Date | null, bought: Purchase[] = []) => ({
    account: async () => ({ userType: 'student' as const, trialEndsAt }),
    taughtCourseIds: async () => [],
    purchases: async () => bought,
  });
  const student = { id: 1, userType: 'student' as const };

  it.each([
    ['in the trial', new Date(now.getTime() + 1000), [], true],
    ['at its last second', new Date(now.getTime() + 999), [], false],
    ['after it', new Date(now.getTime() - 1), [], false],
    ['without one', null, [], false],
    ['having bought', new Date(now.getTime() + 86_400_000), [{ courseId: 1, batchId: 2 }], false],
  ])('sees every course’s open sessions only %s', async (_when, trialEndsAt, bought, open) => {
    const account = { userType: 'student' as const, trialEndsAt };
    expect(inTrial(account, bought.length > 0, now)).toBe(trialState(account, bought.length > 0, now).is_trial);
    expect(inTrial(account, bought.length > 0, now)).toBe(open);
    const seen = await scopeFrom(facts(trialEndsAt, bought), student, now);
    expect(!seen.all && seen.openEverywhere).toBe(open);
  });

  it('is never in trial for a teacher or an admin, whatever their row says', () => {
    const later = new Date(now.getTime() + 86_400_000);
    expect(inTrial({ userType: 'teacher', trialEndsAt: later }, false, now)).toBe(false);
    expect(inTrial({ userType: 'admin', trialEndsAt: later }, false, now)).toBe(false);
  });
});
