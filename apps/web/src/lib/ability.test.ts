import { describe, expect, it } from 'vitest';
import { storageKeys } from '@mooz/contract/config';
import { rulesFor } from '@mooz/contract/permissions';
import { createSessionAbility, explainDenial, refreshAbility } from './ability';
import { announceAuthChange } from './stored-auth';

function storeUser(user: unknown) {
  localStorage.setItem(storageKeys.access, 'token');
  localStorage.setItem(storageKeys.user, JSON.stringify(user));
}

describe('ability from the stored session', () => {
  it('allows only reading Auth without a stored session record', () => {
    const ability = createSessionAbility();
    expect(ability.can('read', 'Auth')).toBe(true);
    expect(ability.can('read', 'Course')).toBe(false);
    expect(ability.rules).toEqual([{ action: 'read', subject: 'Auth' }]);
  });

  it('falls back to the guest rule when the record has no ability list', () => {
    storeUser({ role: 'student' });
    expect(createSessionAbility().rules).toEqual([{ action: 'read', subject: 'Auth' }]);
  });

  it('falls back to the guest rule when the record is not JSON', () => {
    localStorage.setItem(storageKeys.user, '{broken');
    expect(createSessionAbility().can('read', 'Auth')).toBe(true);
  });

  it('uses the rules of the stored user record', () => {
    storeUser({ role: 'student', ability: rulesFor('student', 7) });
    const ability = createSessionAbility();
    expect(ability.can('read', 'StudentDashboard')).toBe(true);
    expect(ability.can('read', 'TeacherDashboard')).toBe(false);
    expect(ability.can('read', 'Auth')).toBe(false);
  });

  it('honours inverted rules', () => {
    storeUser({
      role: 'admin',
      ability: [
        { action: 'manage', subject: 'all' },
        { action: 'read', subject: 'Recording', inverted: true },
      ],
    });
    const ability = createSessionAbility();
    expect(ability.can('read', 'Course')).toBe(true);
    expect(ability.can('read', 'Recording')).toBe(false);
  });

  it('rebuilds in place when the session changes, and back to guest on logout', () => {
    const ability = createSessionAbility();
    storeUser({ role: 'teacher', ability: rulesFor('teacher', 3) });
    refreshAbility(ability);
    expect(ability.can('create', 'Recording')).toBe(true);
    localStorage.clear();
    refreshAbility(ability);
    expect(ability.can('create', 'Recording')).toBe(false);
    expect(ability.can('read', 'Auth')).toBe(true);
  });

  it('follows the mooz:auth-changed event', async () => {
    const { appAbility } = await import('./ability');
    storeUser({ role: 'student', ability: rulesFor('student', 1) });
    announceAuthChange();
    expect(appAbility.can('read', 'Session')).toBe(true);
    localStorage.clear();
    announceAuthChange();
    expect(appAbility.can('read', 'Session')).toBe(false);
  });

  it('explains a denial with the specification message', () => {
    expect(explainDenial(createSessionAbility(), 'read', 'Course')).toBe('Cannot execute read on Course');
  });
});
