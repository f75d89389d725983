// The permission rules per role: one source for the server, which enforces them, and the web app,
// which shows only what they allow. A rule is CASL's {action, subject, inverted?, conditions?,
// fields?, reason?}. Conditions refer to the caller through `userId`, filled in by rulesFor().
import { fieldPatternMatcher, PureAbility, type ForcedSubject, type RawRuleOf } from '@casl/ability';
import { messages } from './messages';

export const userTypes = ['student', 'teacher', 'admin'] as const;
export type UserType = (typeof userTypes)[number];

export type Action = 'manage' | 'create' | 'read' | 'update' | 'delete' | 'join';
export type Subject =
  | 'all'
  | 'Auth'
  | 'Profile'
  | 'Course'
  | 'MyCourse'
  | 'Enrollment'
  | 'Session'
  | 'Recording'
  | 'StudentDashboard'
  | 'TeacherDashboard'
  | 'Bookmark'
  /** A course's assignments: students read them, their course's teacher manages them. */
  | 'Assignment'
  /** Answers to assignments: students create their own, teachers review those of their courses. */
  | 'Submission'
  /** Certificates: students read theirs, teachers award them in their courses. */
  | 'Certificate'
  | 'Meeting'
  | 'User'
  /** The admin area: its menu group, overview and list of every course. */
  | 'AdminArea'
  /** Subscriptions as payments: listed and marked refunded by admins. */
  | 'Payment'
  | 'AuditLog';

/** A subject is a name, or an object tagged with its name by CASL's subject() helper. */
export type SubjectArg = Subject | ForcedSubject<Exclude<Subject, 'all'>>;
/** A rule's conditions: fields of the subject and the values they must equal, as `{ teacher_id: userId }`. */
export type Conditions = Record<string, string | number | boolean | null>;
export type AppAbility = PureAbility<[Action, SubjectArg], Conditions>;
export type Rule = RawRuleOf<AppAbility>;

/** Logged out: the specification's single default rule. */
export const guestRules: Rule[] = [{ action: 'read', subject: 'Auth' }];

const signedIn: Rule[] = [
  { action: 'read', subject: 'Profile' },
  { action: 'update', subject: 'Profile' },
  { action: 'read', subject: 'Course' },
  { action: 'manage', subject: 'Bookmark' },
  { action: 'create', subject: 'Meeting' },
  { action: 'join', subject: 'Meeting' },
];

export function rulesFor(userType: UserType, userId: number): Rule[] {
  switch (userType) {
    case 'student':
      return [
        ...signedIn,
        { action: 'read', subject: 'MyCourse' },
        { action: 'create', subject: 'Enrollment' },
        { action: 'read', subject: 'Session' },
        { action: 'read', subject: 'Recording' },
        { action: 'read', subject: 'StudentDashboard' },
        { action: 'read', subject: 'Assignment' },
        { action: 'create', subject: 'Submission' },
        { action: 'read', subject: 'Submission', conditions: { student_id: userId } },
        { action: 'read', subject: 'Certificate' },
      ];
    case 'teacher':
      return [
        ...signedIn,
        { action: 'read', subject: 'MyCourse' },
        { action: 'create', subject: 'Course' },
        { action: 'update', subject: 'Course', conditions: { teacher_id: userId } },
        { action: 'delete', subject: 'Course', conditions: { teacher_id: userId } },
        { action: 'read', subject: 'Session' },
        { action: 'create', subject: 'Session' },
        // Edit, cancel and see the attendance of the sessions of courses they teach.
        { action: 'update', subject: 'Session', conditions: { teacher_id: userId } },
        { action: 'read', subject: 'Recording' },
        { action: 'create', subject: 'Recording' },
        { action: 'read', subject: 'TeacherDashboard' },
        // Assignments, their answers and certificates of the courses they teach (the server checks the course).
        { action: 'read', subject: 'Assignment' },
        { action: 'create', subject: 'Assignment' },
        { action: 'update', subject: 'Assignment', conditions: { teacher_id: userId } },
        { action: 'read', subject: 'Submission', conditions: { teacher_id: userId } },
        { action: 'update', subject: 'Submission', conditions: { teacher_id: userId } },
        { action: 'read', subject: 'Certificate' },
        { action: 'create', subject: 'Certificate' },
      ];
    case 'admin':
      // Everything, but buying: staff do not enroll, so no "Enroll" button and no trial for them.
      return [
        { action: 'manage', subject: 'all' },
        { action: 'create', subject: 'Enrollment', inverted: true, reason: messages.adminsDoNotEnroll },
      ];
  }
}

/**
 * Matches a rule's conditions against a subject: every field equal to its value. That is all these rules
 * ask of a condition, and it keeps MongoDB's query language (@ucast) out of every signed-in
 * screen of the web app. Anything more (an operator such as $in, a nested query) is refused loudly when
 * the rule is first matched, not read as something else; a test pins that every role's rules answer as
 * CASL's MongoDB matcher would.
 */
export function equalityMatcher(conditions: Conditions): (object: Record<string, unknown>) => boolean {
  const entries = Object.entries(conditions);
  for (const [field, value] of entries) {
    if (field.startsWith('$') || (value !== null && typeof value === 'object')) {
      throw new Error(`Unsupported permission condition on "${field}": only equality is supported`);
    }
  }
  return (object) => entries.every(([field, value]) => object[field] === value);
}

export function buildAbility(rules: Rule[]): AppAbility {
  return new PureAbility<[Action, SubjectArg], Conditions>(rules, {
    conditionsMatcher: equalityMatcher as never,
    fieldMatcher: fieldPatternMatcher,
  });
}

/** The specification's default denial message. */
export const denialMessage = (action: string, subject: string) =>
  `Cannot execute ${action} on ${subject}`;
