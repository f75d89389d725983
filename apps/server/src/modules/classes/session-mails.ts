// The mails a session's students get when it is cancelled or moved: in each student's language, with
// the session's time given twice, in UTC and in the course's own time zone, so nobody has to guess
// which zone a bare "16:00" meant.
import type { Mail } from '../../infrastructure/mail';
import { escapeHtml, mailLanguage, mailTranslator } from '../../infrastructure/mail-text';

export interface Recipient {
  email: string;
  firstName: string;
  language: string | null;
}

export interface SessionFacts {
  title: string;
  courseName: string;
  timeZone: string;
}

/** "Mon 24 Nov 2026, 10:30 UTC (16:00 Asia/Kolkata)", in the reader's language. */
export function formatSessionTime(at: Date, timeZone: string, language: string | null): string {
  const lng = mailLanguage(language);
  const format = (zone: string) =>
    new Intl.DateTimeFormat(lng, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone }).format(at);
  return `${format('UTC')} UTC (${format(timeZone)} ${timeZone})`;
}

function compose(to: Recipient, subject: string, lines: string[]): Mail {
  const t = mailTranslator(to.language);
  const greeting = t('greeting', { name: to.firstName });
  const closing = t('session.list');
  return {
    to: to.email,
    subject,
    text: `${greeting}\n\n${lines.join('\n')}\n\n${closing}\n`,
    html: `<p>${escapeHtml(greeting)}</p><p>${lines.map(escapeHtml).join('<br>')}</p><p>${escapeHtml(closing)}</p>`,
  };
}

export function cancelledMail(to: Recipient, session: SessionFacts & { startsAt: Date }, reason: string): Mail {
  const t = mailTranslator(to.language);
  const names = { title: session.title, course: session.courseName };
  return compose(to, t('session.cancelled.subject', names), [
    t('session.cancelled.intro', names),
    t('session.cancelled.when', { time: formatSessionTime(session.startsAt, session.timeZone, to.language) }),
    t('session.cancelled.reason', { reason }),
  ]);
}

export function movedMail(to: Recipient, session: SessionFacts, before: { startsAt: Date; endsAt: Date }, after: { startsAt: Date; endsAt: Date }): Mail {
  const t = mailTranslator(to.language);
  const names = { title: session.title, course: session.courseName };
  const span = (at: { startsAt: Date; endsAt: Date }) =>
    `${formatSessionTime(at.startsAt, session.timeZone, to.language)} – ${Math.round((at.endsAt.getTime() - at.startsAt.getTime()) / 60_000)} min`;
  return compose(to, t('session.moved.subject', names), [
    t('session.moved.intro', names),
    t('session.moved.before', { time: span(before) }),
    t('session.moved.after', { time: span(after) }),
  ]);
}
