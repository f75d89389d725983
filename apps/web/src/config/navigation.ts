// The areas of the app, shown in the side menu, the search box and the dashboard when the
// user's rules allow reading their subject.
import type { ComponentType } from 'react';
import {
  IconBooks,
  IconCalendarEvent,
  IconLayoutDashboard,
  IconSchool,
  IconVideo,
  type IconProps,
} from '@tabler/icons-react';
import type { Action, Subject, UserType } from '@mooz/contract/permissions';
import { paths } from './paths';

export interface NavigationItem {
  id: string;
  labelKey: string;
  descriptionKey: string;
  /** What the area is for someone of another role, where the default would mislead them. */
  descriptionKeyFor?: Partial<Record<UserType, string>>;
  path: string;
  icon: ComponentType<IconProps>;
  /** The item shows when any of these is allowed. */
  anyOf: [Action, Subject][];
}

/**
 * An area whose label and description are the translations `nav.{key}` and `nav.{key}.description`;
 * `descriptionFor` names, per role, the suffix of a description worded for that role.
 */
function area(
  id: string,
  key: string,
  path: string,
  icon: ComponentType<IconProps>,
  anyOf: [Action, Subject][],
  descriptionFor: Partial<Record<UserType, string>> = {},
): NavigationItem {
  const descriptionKey = `nav.${key}.description`;
  const descriptionKeyFor = Object.fromEntries(Object.entries(descriptionFor).map(([role, suffix]) => [role, `${descriptionKey}.${suffix}`]));
  return { id, labelKey: `nav.${key}`, descriptionKey, descriptionKeyFor, path, icon, anyOf };
}

export const navigationItems: NavigationItem[] = [
  area('dashboard', 'dashboard', paths.dashboard, IconLayoutDashboard, [['read', 'StudentDashboard'], ['read', 'TeacherDashboard']]),
  area('courses', 'courses', paths.courses, IconBooks, [['read', 'Course']], { teacher: 'staff', admin: 'staff' }),
  area('my-courses', 'myCourses', paths.myCourses, IconSchool, [['read', 'MyCourse']], { teacher: 'teacher', admin: 'admin' }),
  area('sessions', 'sessions', paths.sessions, IconCalendarEvent, [['read', 'Session']], { teacher: 'teacher', admin: 'admin' }),
  area('meetings', 'meetings', paths.meetings, IconVideo, [['create', 'Meeting'], ['join', 'Meeting']]),
];

export function visibleNavigation(can: (action: Action, subject: Subject) => boolean): NavigationItem[] {
  return navigationItems.filter((item) => item.anyOf.some(([action, subject]) => can(action, subject)));
}

/** The area's description in the words of the user's role. */
export function descriptionKeyOf(item: NavigationItem, role: string | undefined): string {
  return (role && item.descriptionKeyFor?.[role as UserType]) || item.descriptionKey;
}
