// The names navigation shares, without zod (navigation.ts holds the schemas), so the web app's menus
// read them without downloading the schemas: icons, the app's pages (which search and bookmarks offer
// to whoever may open them), bookmark ids of courses, and the kinds of search results.
import type { Action, Subject } from './permissions';

/** Icon names the web app maps to its icons; the server only passes them along. */
export const navigationIcons = ['dashboard', 'books', 'school', 'calendar', 'video', 'user', 'users', 'shield', 'book', 'receipt', 'history', 'movie'] as const;
export type NavigationIcon = (typeof navigationIcons)[number];

export interface AppPage {
  /** A bookmark id: `page:{name}`, stable forever. */
  id: `page:${string}`;
  /** English; the web app shows the translation `nav.{key}`. */
  title: string;
  key: string;
  link: `/${string}`;
  icon: NavigationIcon;
  /** The page opens for whoever may do any of these. */
  anyOf: readonly (readonly [Action, Subject])[];
  /** The menu group it is listed in: the admin area has its own. */
  group: 'learning' | 'admin';
}

const page = (
  name: string,
  key: string,
  title: string,
  link: `/${string}`,
  icon: NavigationIcon,
  anyOf: AppPage['anyOf'],
  group: AppPage['group'] = 'learning',
): AppPage => ({ id: `page:${name}`, key, title, link, icon, anyOf, group });

/** The pages of the app a user can be sent to by search or a bookmark, in menu order. */
export const appPages: readonly AppPage[] = [
  page('dashboard', 'dashboard', 'Dashboard', '/dashboard', 'dashboard', [
    ['read', 'StudentDashboard'],
    ['read', 'TeacherDashboard'],
  ]),
  page('courses', 'courses', 'Courses', '/courses', 'books', [['read', 'Course']]),
  page('my-courses', 'myCourses', 'My courses', '/my-courses', 'school', [['read', 'MyCourse']]),
  page('sessions', 'sessions', 'Sessions', '/sessions', 'calendar', [['read', 'Session']]),
  page('recordings', 'recordings', 'Recordings', '/recordings', 'movie', [['read', 'Recording']]),
  page('meetings', 'meetings', 'Meetings', '/meeting', 'video', [
    ['create', 'Meeting'],
    ['join', 'Meeting'],
  ]),
  page('profile', 'profile', 'Profile', '/profile', 'user', [['read', 'Profile']]),
  // The admin area: its own menu group, which the permission rules show to admins only.
  page('admin', 'adminOverview', 'Admin overview', '/admin', 'shield', [['read', 'AdminArea']], 'admin'),
  page('admin-users', 'adminUsers', 'Users', '/admin/users', 'users', [['read', 'User']], 'admin'),
  page('admin-courses', 'adminCourses', 'All courses', '/admin/courses', 'books', [['read', 'AdminArea']], 'admin'),
  page('admin-payments', 'adminPayments', 'Payments', '/admin/payments', 'receipt', [['read', 'Payment']], 'admin'),
  page('admin-audit', 'adminAudit', 'Audit log', '/admin/audit', 'history', [['read', 'AuditLog']], 'admin'),
];

/** Bookmark ids of things that are not pages. */
export const courseItemId = (courseId: number) => `course:${courseId}` as const;

export const searchKinds = ['course', 'session', 'recording', 'student'] as const;
export type SearchKind = (typeof searchKinds)[number];
