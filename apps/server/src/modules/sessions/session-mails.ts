// The words of the mails a session's people get when it is moved, cancelled or about to start: one
// template per kind, written from the notification's facts (its params) in the reader's language, with
// the session's time given twice, in UTC and in the course's own time zone, so nobody has to guess
// which zone a bare "16:00" meant. The notifications module lays them out and mails them
// (notifications/notice-mails.ts), with the footer and unsubscribe of every notice mail.
import { limits } from '@mooz/contract/limits';
import type { NotificationKind } from '@mooz/contract/notifications';
import { mailLanguage, mailTranslator } from '../../infrastructure/mail-text';

/** "Mon 24 Nov 2026, 10:30 UTC (16:00 Asia/Kolkata)", in the reader's language. */
export function formatSessionTime(at: Date, timeZone: string, language: string | null): string {
  const lng = mailLanguage(language);
  const format = (zone: string) =>
    new Intl.DateTimeFormat(lng, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone }).format(at);
  return `${format('UTC')} UTC (${format(timeZone)} ${timeZone})`;
}

/** The session kinds, whose mails go at once and alone: a new time or a reminder must not wait for a digest. */
export const sessionKinds: readonly NotificationKind[] = ['class_moved', 'class_cancelled', 'class_starting'];

type Params = Record<string, string | number>;

/** What a session kind's mail says; the layout adds greeting, footer and unsubscribe. */
interface SessionMailWords {
  subject: string;
  paragraphs: string[];
  action: { label: string; href: string } | null;
}

/**
 * The facts of a session's notification: `starts_at`, `minutes` (its length) and `time_zone` (the
 * course's); a move adds `previous_starts_at` and `previous_minutes`, a cancellation its `reason`.
 */
export function sessionParams(
  session: { title: string; courseName: string; timeZone: string; startsAt: Date; endsAt: Date },
  extra: Params = {},
): Params {
  return {
    course: session.courseName,
    title: session.title,
    starts_at: session.startsAt.toISOString(),
    minutes: Math.round((session.endsAt.getTime() - session.startsAt.getTime()) / 60_000),
    time_zone: session.timeZone,
    ...extra,
  };
}

/**
 * The words of one session mail, or null for a kind that is not a session's. `href` is the absolute
 * address of the notification's page (a reminder's: the join link); `at` is when the mail is written,
 * so a reminder says the minutes really left.
 */
export function sessionMailWords(kind: NotificationKind, params: Params, language: string | null, href: string | null, at: Date): SessionMailWords | null {
  if (!sessionKinds.includes(kind)) return null;
  const t = mailTranslator(language);
  const zone = String(params.time_zone);
  const time = (iso: string | number | undefined) => formatSessionTime(new Date(String(iso)), zone, language);
  const span = (iso: string | number | undefined, minutes: string | number | undefined) => `${time(iso)} – ${minutes} min`;
  const names = { title: params.title, course: params.course };
  const open = href ? { label: t('notice.action'), href } : null;
  if (kind === 'class_moved') {
    return {
      subject: t('session.moved.subject', names),
      paragraphs: [
        t('session.moved.intro', names),
        ...(params.previous_starts_at ? [t('session.moved.before', { time: span(params.previous_starts_at, params.previous_minutes) })] : []),
        t('session.moved.after', { time: span(params.starts_at, params.minutes) }),
        t('session.list'),
      ],
      action: open,
    };
  }
  if (kind === 'class_cancelled') {
    return {
      subject: t('session.cancelled.subject', names),
      paragraphs: [
        t('session.cancelled.intro', names),
        t('session.cancelled.when', { time: time(params.starts_at) }),
        ...(params.reason ? [t('session.cancelled.reason', { reason: params.reason })] : []),
        t('session.list'),
      ],
      action: open,
    };
  }
  // The minutes left as they are when the mail is written: the lead as a rule, fewer for a session
  // scheduled inside it; one mailed after its start (the server was down) says it is under way.
  const minutes = Math.ceil((new Date(String(params.starts_at)).getTime() - at.getTime()) / 60_000);
  const started = minutes <= 0;
  const words = { ...names, minutes: Math.min(minutes, limits.reminderLeadMinutes) };
  return {
    subject: t(started ? 'session.reminder.subjectStarted' : 'session.reminder.subject', words),
    paragraphs: [t(started ? 'session.reminder.introStarted' : 'session.reminder.intro', words), t('session.reminder.when', { time: time(params.starts_at) })],
    action: href ? { label: t('session.reminder.join'), href } : null,
  };
}
