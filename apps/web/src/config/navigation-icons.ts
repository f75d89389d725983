// The contract names icons (`NavigationIcon`); this is the one place that turns a name into a drawing.
import type { ComponentType } from 'react';
import {
  IconBook2,
  IconBooks,
  IconCalendarEvent,
  IconHistory,
  IconLayoutDashboard,
  IconMovie,
  IconReceipt,
  IconSchool,
  IconShield,
  IconUser,
  IconUsers,
  IconVideo,
  type IconProps,
} from '@tabler/icons-react';
import type { NavigationIcon } from '@mooz/contract/navigation-lists';

export const navigationIcons: Record<NavigationIcon, ComponentType<IconProps>> = {
  dashboard: IconLayoutDashboard,
  books: IconBooks,
  school: IconSchool,
  calendar: IconCalendarEvent,
  video: IconVideo,
  user: IconUser,
  users: IconUsers,
  shield: IconShield,
  book: IconBook2,
  receipt: IconReceipt,
  history: IconHistory,
  movie: IconMovie,
};

/** The drawing for a name the server sent; an unknown one (a newer server) falls back to a book. */
export const iconOf = (name: string): ComponentType<IconProps> => navigationIcons[name as NavigationIcon] ?? IconBook2;
