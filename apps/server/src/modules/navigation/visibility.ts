// What a caller may be sent to by search and bookmarks: the app's pages their permission rules open,
// and the courses they can see (published and not archived; a teacher also their own; admins all).
import { sql, type SQL } from 'drizzle-orm';
import { appPages, type AppPage } from '@mooz/contract/navigation';
import type { AuthUser } from '../../http/authenticate';

export type Caller = Pick<AuthUser, 'id' | 'userType' | 'ability'>;

/** The pages whose `anyOf` the caller's rules allow, in menu order. */
export function pagesFor(caller: Caller): AppPage[] {
  return appPages.filter((page) => page.anyOf.some(([action, subject]) => caller.ability.can(action, subject)));
}

/** SQL: the course aliased `c` is one the caller can see. */
export function courseVisible(caller: Caller): SQL {
  if (caller.userType === 'admin') return sql`true`;
  const listed = sql`(c.published and c.archived_at is null)`;
  return caller.userType === 'teacher' ? sql`(${listed} or c.teacher_id = ${caller.id})` : listed;
}

export const courseLink = (courseId: number) => `/courses/${courseId}`;
/** The web app's player of one recording. */
export const recordingLink = (recordingId: number) => `/recordings/${recordingId}`;
