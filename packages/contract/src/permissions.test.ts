import { describe, expect, it } from 'vitest';
import { buildAbility, denialMessage, equalityMatcher, guestRules, rulesFor, type Action, type Subject } from './permissions';
import { createMongoAbility, subject } from '@casl/ability';

describe('permission rules', () => {
  it('answer every question as CASL\'s MongoDB matcher would, for every role', () => {
    const actions: Action[] = ['manage', 'create', 'read', 'update', 'delete', 'join'];
    const subjects: Subject[] = ['Auth', 'Profile', 'Course', 'MyCourse', 'Enrollment', 'Session', 'Recording', 'StudentDashboard', 'TeacherDashboard', 'Bookmark', 'Assignment', 'Submission', 'Certificate', 'Meeting', 'User', 'AdminArea', 'Payment', 'AuditLog'];
    const me = 7;
    const roleRules = [guestRules, rulesFor('student', me), rulesFor('teacher', me), rulesFor('admin', me)];
    let asked = 0;
    for (const rules of roleRules) {
      const ours = buildAbility(rules);
      const mongo = createMongoAbility(rules);
      for (const action of actions) {
        for (const name of subjects) {
          expect(ours.can(action, name), `${action} ${name}`).toBe(mongo.can(action, name as never));
          // Objects: the caller's own, someone else's, and one without the field.
          for (const fields of [{ teacher_id: me, student_id: me }, { teacher_id: me + 1, student_id: me + 1 }, {}]) {
            const ask = () => subject(name as never, { ...fields }) as never;
            expect(ours.can(action, ask()), `${action} ${name} ${JSON.stringify(fields)}`).toBe(mongo.can(action, ask()));
            asked++;
          }
        }
      }
    }
    expect(asked).toBe(4 * 6 * 18 * 3);
  });

  it('refuses a condition that is more than an equality rather than misreading it', () => {
    expect(() => equalityMatcher({ teacher_id: { $in: [1, 2] } } as never)).toThrow(/only equality/);
    expect(() => equalityMatcher({ $or: [] } as never)).toThrow(/only equality/);
    expect(equalityMatcher({ teacher_id: 2 })({ teacher_id: 2 })).toBe(true);
    expect(equalityMatcher({ teacher_id: 2 })({ teacher_id: '2' })).toBe(false);
  });

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
