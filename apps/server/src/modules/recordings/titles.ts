// The default title of a recording: its session's or meeting room's name, and from the
// second recording of the same room on, its number among them: "Week 1", "Week 1 (2)". No date: a
// stored title cannot follow each viewer's time zone, and the app shows every date and time in the
// viewer's own (the lists and the player show when each recording was made beside its title), so a
// date in the name would disagree with the one beside it for anyone in another zone than the course's.
import { count, eq } from 'drizzle-orm';
import { recordingLimits } from '@mooz/contract/recordings';
import type { Database } from '../../db/client';
import { recordings } from '../../db/schema/index';

/** `name`, or `name (n)` when the room has n - 1 recordings already, cut to the longest title allowed. */
function numberedTitle(name: string, number: number): string {
  const suffix = number > 1 ? ` (${number})` : '';
  return name.slice(0, recordingLimits.titleMaxLength - suffix.length) + suffix;
}

/** The title the next recording of `roomId` gets when its recorder gives none. */
export async function defaultTitle(db: Pick<Database, 'select'>, roomId: string, name: string): Promise<string> {
  const [existing] = await db.select({ n: count() }).from(recordings).where(eq(recordings.roomId, roomId));
  return numberedTitle(name, (existing?.n ?? 0) + 1);
}
