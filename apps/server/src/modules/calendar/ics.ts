// Sessions as iCalendar (RFC 5545), written by ical-generator: one VEVENT per session with a stable
// UID (so a calendar app updates the event when the session moves rather than adding another), start
// and end as UTC instants (…Z: the same moment in every zone and on both sides of a daylight-saving
// change; no floating times, and no TZID that would need a VTIMEZONE), the join link as URL and in the
// description, and a cancelled session as STATUS:CANCELLED.
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { mailTranslator } from '../../infrastructure/mail-text';
import { formatSessionTime, joinLink } from '../sessions';

export interface CalendarSession {
  id: number;
  title: string;
  courseName: string;
  teacherName: string;
  startsAt: Date;
  endsAt: Date;
  roomId: string;
  cancelledAt: Date | null;
  cancelReason: string | null;
  /** The course's zone: the description also gives the time there. */
  timeZone: string;
}

interface CalendarOptions {
  /** The app's address: join links. */
  origin: string;
  /** The domain part of every UID: fixed per installation, whatever address a request came by. */
  uidDomain: string;
  /** The reader's language (descriptions). */
  language: string | null;
  now: Date;
  /** A feed (refreshed by the app) or one event to import (METHOD:PUBLISH). */
  kind: 'feed' | 'single';
}

const sessionUid = (id: number, domain: string) => `mooz-session-${id}@${domain}`;

export function sessionsCalendar(sessions: CalendarSession[], options: CalendarOptions): string {
  const t = mailTranslator(options.language);
  const calendar = ical({
    name: t('calendar.name'),
    prodId: { company: 'Mooz', product: 'Mooz classes', language: 'EN' },
    ...(options.kind === 'feed' ? { ttl: 60 * 60 } : { method: ICalCalendarMethod.PUBLISH }),
  });
  for (const session of sessions) {
    const link = joinLink(options.origin, session.roomId);
    const cancelled = session.cancelledAt !== null;
    const lines = [
      t('calendar.course', { course: session.courseName }),
      t('calendar.teacher', { name: session.teacherName }),
      t('calendar.when', { time: formatSessionTime(session.startsAt, session.timeZone, options.language) }),
      ...(cancelled ? [t('calendar.cancelled', { reason: session.cancelReason ?? '' })] : [t('calendar.join', { link })]),
    ];
    calendar.createEvent({
      id: sessionUid(session.id, options.uidDomain),
      start: session.startsAt,
      end: session.endsAt,
      stamp: options.now,
      summary: `${session.title} · ${session.courseName}`,
      description: lines.join('\n'),
      location: cancelled ? null : link,
      url: link,
      status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      // A cancellation is a revision of the event: apps that compare sequences take it over the original.
      sequence: cancelled ? 1 : 0,
    });
  }
  return calendar.toString();
}
