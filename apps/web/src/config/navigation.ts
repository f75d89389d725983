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

export const navigationItems: NavigationItem[] = [
  {
    id: 'dashboard',
    labelKey: 'nav.dashboard',
    descriptionKey: 'nav.dashboard.description',
    path: paths.dashboard,
    icon: IconLayoutDashboard,
    anyOf: [
      ['read', 'StudentDashboard'],
      ['read', 'TeacherDashboard'],
    ],
  },
  {
    id: 'courses',
    labelKey: 'nav.courses',
    descriptionKey: 'nav.courses.description',
    descriptionKeyFor: { teacher: 'nav.courses.description.staff', admin: 'nav.courses.description.staff' },
    path: paths.courses,
    icon: IconBooks,
    anyOf: [['read', 'Course']],
  },
  {
    id: 'my-courses',
    labelKey: 'nav.myCourses',
    descriptionKey: 'nav.myCourses.description',
    descriptionKeyFor: { teacher: 'nav.myCourses.description.teacher', admin: 'nav.myCourses.description.admin' },
    path: paths.myCourses,
    icon: IconSchool,
    anyOf: [['read', 'MyCourse']],
  },
  {
    id: 'sessions',
    labelKey: 'nav.sessions',
    descriptionKey: 'nav.sessions.description',
    descriptionKeyFor: { teacher: 'nav.sessions.description.teacher', admin: 'nav.sessions.description.admin' },
    path: paths.sessions,
    icon: IconCalendarEvent,
    anyOf: [['read', 'Session']],
  },
  {
    id: 'meetings',
    labelKey: 'nav.meetings',
    descriptionKey: 'nav.meetings.description',
    path: paths.meetings,
    icon: IconVideo,
    anyOf: [
      ['create', 'Meeting'],
      ['join', 'Meeting'],
    ],
  },
];

export function visibleNavigation(can: (action: Action, subject: Subject) => boolean): NavigationItem[] {
  return navigationItems.filter((item) => item.anyOf.some(([action, subject]) => can(action, subject)));
}

/** The area's description in the words of the user's role. */
export function descriptionKeyOf(item: NavigationItem, role: string | undefined): string {
  return (role && item.descriptionKeyFor?.[role as UserType]) || item.descriptionKey;
}
