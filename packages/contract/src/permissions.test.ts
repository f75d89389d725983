import { describe, expect, it } from 'vitest';
import { buildAbility, denialMessage, guestRules, rulesFor } from './permissions';
import { subject } from '@casl/ability';

describe('permission rules', () => {
  it('lets a logged-out visitor read Auth and nothing else', () => {
    const ability = buildAbility(guestRules);
    expect(ability.can('read', 'Auth')).toBe(true);
    expect(ability.can('read', 'Course')).toBe(false);
  });

  it('keeps the teacher dashboard from students and the student dashboard from teachers', () => {
    expect(buildAbility(rulesFor('student', 1)).can('read', 'TeacherDashboard')).toBe(false);
    expect(buildAbility(rulesFor('teacher', 2)).can('read', 'StudentDashboard')).toBe(false);
    expect(buildAbility(rulesFor('teacher', 2)).can('read', 'TeacherDashboard')).toBe(true);
  });

  it('lets a teacher edit only the courses they teach', () => {
    const ability = buildAbility(rulesFor('teacher', 2));
    expect(ability.can('update', subject('Course', { teacher_id: 2 }))).toBe(true);
    expect(ability.can('update', subject('Course', { teacher_id: 3 }))).toBe(false);
  });

  it('gives an admin everything', () => {
    expect(buildAbility(rulesFor('admin', 9)).can('create', 'User')).toBe(true);
  });

  it('keeps admins from enrolling, with the reason, and the admin area to admins', () => {
    const admin = buildAbility(rulesFor('admin', 9));
    expect(admin.can('create', 'Enrollment')).toBe(false);
    expect(admin.relevantRuleFor('create', 'Enrollment')?.reason).toBe('Admins do not enroll in courses');
    for (const [action, subjectName] of [['read', 'AdminArea'], ['read', 'User'], ['update', 'User'], ['read', 'Payment'], ['update', 'Payment'], ['read', 'AuditLog']] as const) {
      expect(admin.can(action, subjectName)).toBe(true);
      expect(buildAbility(rulesFor('teacher', 2)).can(action, subjectName)).toBe(false);
      expect(buildAbility(rulesFor('student', 1)).can(action, subjectName)).toBe(false);
    }
    expect(buildAbility(rulesFor('student', 1)).can('create', 'Enrollment')).toBe(true);
  });

  it('words a denial as the specification does', () => {
    expect(denialMessage('read', 'Course')).toBe('Cannot execute read on Course');
  });
});
