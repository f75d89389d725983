// The areas of the app, shown in the side menu, the top menu, the search and the dashboard when the
// user's rules allow them. Which pages exist, where they live and who may open them is the contract's
// `appPages` (the server offers the same list as bookmarks); this adds the words and the drawing.
import type { ComponentType } from 'react';
import type { IconProps } from '@tabler/icons-react';
import { appPages, type AppPage, type NavigationIcon } from '@mooz/contract/navigation-lists';
import type { Action, Subject, UserType } from '@mooz/contract/permissions';
import { navigationIcons } from './navigation-icons';

interface NavigationItem {
  /** The page's name (`my-courses`): test ids and keys. */
  id: string;
  /** The bookmark id (`page:my-courses`). */
  pageId: AppPage['id'];
  labelKey: string;
  descriptionKey: string;
  /** What the area is for someone of another role, where the default would mislead them. */
  descriptionKeyFor?: Partial<Record<UserType, string>>;
  path: string;
  icon: ComponentType<IconProps>;
  iconName: NavigationIcon;
  /** The item shows when any of these is allowed. */
  anyOf: AppPage['anyOf'];
  /** Listed in the menus and on the dashboard; the others (the profile, in the user menu) only in search. */
  inMenu: boolean;
  /** The menu group, headed `nav.section.{group}`. */
  group: AppPage['group'];
}

/** Per page key, per role: the suffix of a description worded for that role (`nav.{key}.description.{suffix}`). */
const descriptionsFor: Record<string, Partial<Record<UserType, string>>> = {
  courses: { teacher: 'staff', admin: 'staff' },
  myCourses: { teacher: 'teacher', admin: 'admin' },
  sessions: { teacher: 'teacher', admin: 'admin' },
};

/** Pages reached from the user menu rather than the main menu. */
const outsideMenu = new Set<AppPage['id']>(['page:profile']);

function itemOf(page: AppPage): NavigationItem {
  const descriptionKey = `nav.${page.key}.description`;
  const descriptionKeyFor = Object.fromEntries(
    Object.entries(descriptionsFor[page.key] ?? {}).map(([role, suffix]) => [role, `${descriptionKey}.${suffix}`]),
  );
  return {
    id: page.id.slice('page:'.length),
    pageId: page.id,
    labelKey: `nav.${page.key}`,
    descriptionKey,
    descriptionKeyFor,
    path: page.link,
    icon: navigationIcons[page.icon],
    iconName: page.icon,
    anyOf: page.anyOf,
    inMenu: !outsideMenu.has(page.id),
    group: page.group,
  };
}

const navigationItems: NavigationItem[] = appPages.map(itemOf);

type Can = (action: Action, subject: Subject) => boolean;

/** Every page the user may open, search's list. */
export function visiblePages(can: Can): NavigationItem[] {
  return navigationItems.filter((item) => item.anyOf.some(([action, subject]) => can(action, subject)));
}

/** The pages of the menus and the dashboard that the user may open. */
export function visibleNavigation(can: Can): NavigationItem[] {
  return visiblePages(can).filter((item) => item.inMenu);
}

/** The menu's groups that have a page the user may open, each with its pages, in menu order. */
export function visibleGroups(can: Can): { group: AppPage['group']; items: NavigationItem[] }[] {
  const items = visibleNavigation(can);
  return (['learning', 'admin'] as const)
    .map((group) => ({ group, items: items.filter((item) => item.group === group) }))
    .filter(({ items: inGroup }) => inGroup.length > 0);
}

/** Whether `pathname` is the item's page or below it; the admin overview only for itself, its sections have their own items. */
export function isCurrentPage(item: Pick<NavigationItem, 'path'>, pathname: string): boolean {
  return pathname === item.path || (item.path !== '/admin' && pathname.startsWith(`${item.path}/`));
}

/** The translation key of a bookmarked page's label, or null for anything that is not a page. */
export function pageLabelKey(id: string): string | null {
  const page = appPages.find((candidate) => candidate.id === id);
  return page ? `nav.${page.key}` : null;
}

/** The area's description in the words of the user's role. */
export function descriptionKeyOf(item: NavigationItem, role: string | undefined): string {
  return (role && item.descriptionKeyFor?.[role as UserType]) || item.descriptionKey;
}
