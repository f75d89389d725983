// The mail of each kind of notification: one template per kind (its subject, its sentence, where its
// button leads), in the reader's language, laid out by mail-layout.ts; and the digest that carries
// several of one kind at once. Payment mails are the receipts (receipts.ts), and arrive here already
// written; a session's move, cancellation and reminder take their words from classes/session-mails.ts.
import type { NotificationKind } from '@mooz/contract/notifications';
import { mayTurnOffMail } from '@mooz/contract/notifications';
import type { Mail } from '../../infrastructure/mail';
import { escapeHtml, mailLanguage, mailTranslator } from '../../infrastructure/mail-text';
import { sessionMailWords } from '../sessions';
import { renderMail, type MailModel } from './mail-layout';

export type NoticeParams = Record<string, string | number>;

interface Reader {
  email: string;
  firstName: string;
  language: string | null;
}

interface MailLinks {
  /** The app's address: links in mails are absolute. */
  origin: string;
  /** The one-click unsubscribe address for this reader and kind (none for the always-mailed kinds). */
  unsubscribe: string | null;
}

/** Money in minor units, in the reader's way of writing it: 149900 INR → ₹1,499.00. */
export function formatMoney(amount: number, currency: string, language: string | null): string {
  const format = new Intl.NumberFormat(mailLanguage(language), { style: 'currency', currency });
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

/** The words' values: moments (a sign-in, a password change) and money written for the reader, the rest as they are. */
function wordsOf(params: NoticeParams, language: string | null): Record<string, string | number> {
  const out: Record<string, string | number> = { ...params };
  for (const [key, value] of Object.entries(params)) {
    if ((key === 'at' || key.endsWith('_at')) && typeof value === 'string') {
      out[key] = `${new Intl.DateTimeFormat(mailLanguage(language), { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(value))} UTC`;
    }
  }
  if (typeof params.amount === 'number' && typeof params.currency === 'string') out.amount = formatMoney(params.amount, params.currency, language);
  return out;
}

function footerOf(kind: NotificationKind, to: Reader, links: MailLinks) {
  const t = mailTranslator(to.language);
  return {
    footer: [t(mayTurnOffMail(kind) ? 'notice.footer.reason' : 'notice.footer.always')],
    footerLinks: [
      { label: t('notice.footer.manage'), href: `${links.origin}/profile#mail-preferences` },
      ...(links.unsubscribe ? [{ label: t('notice.footer.unsubscribe'), href: links.unsubscribe }] : []),
    ],
  };
}

/** The RFC 8058 headers of a mail that may be turned off. */
export const unsubscribeHeaders = (unsubscribe: string | null): Record<string, string> | undefined =>
  unsubscribe ? { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : undefined;

async function toMail(to: Reader, model: MailModel, unsubscribe: string | null): Promise<Mail> {
  const rendered = await renderMail(model);
  const headers = unsubscribeHeaders(unsubscribe);
  return { to: to.email, ...rendered, ...(headers && { headers }) };
}

/**
 * Whom a notification's mail goes to: its person, except an email change, which is told at the address
 * it left (the new one proved itself with a code; the old one's owner must learn of a takeover).
 */
export function mailReader(reader: Reader, notice: { kind: NotificationKind; params: NoticeParams }): Reader {
  return notice.kind === 'email_changed' && typeof notice.params.previous === 'string' ? { ...reader, email: notice.params.previous } : reader;
}

/** One notification's own mail; `at`: when it is written (a reminder counts the minutes left from it). */
export async function noticeMail(
  to: Reader,
  notice: { kind: NotificationKind; params: NoticeParams; link: string | null },
  links: MailLinks,
  at: Date = new Date(),
): Promise<Mail> {
  const t = mailTranslator(to.language);
  const href = notice.link ? `${links.origin}${notice.link}` : null;
  const session = sessionMailWords(notice.kind, notice.params, to.language, href, at);
  const words = wordsOf(notice.params, to.language);
  const key = `notice.${notice.kind}`;
  return toMail(
    to,
    {
      language: mailLanguage(to.language),
      subject: session?.subject ?? t(`${key}.subject`, words),
      greeting: t('greeting', { name: to.firstName }),
      paragraphs: session?.paragraphs ?? [t(`${key}.body`, words)],
      ...(session ? session.action && { action: session.action } : href && { action: { label: t('notice.action'), href } }),
      ...footerOf(notice.kind, to, links),
    },
    links.unsubscribe,
  );
}

/** Several notifications of one kind in one mail (mail volume: see notificationRules.digestWindowSeconds). */
export async function digestMail(
  to: Reader,
  kind: NotificationKind,
  notices: { params: NoticeParams; link: string | null }[],
  links: MailLinks,
): Promise<Mail> {
  const t = mailTranslator(to.language);
  return toMail(
    to,
    {
      language: mailLanguage(to.language),
      subject: t(`notice.${kind}.digest`, { count: notices.length }),
      greeting: t('greeting', { name: to.firstName }),
      paragraphs: [t('notice.digest.intro', { count: notices.length })],
      items: notices.map((n) => ({ text: t(`notice.${kind}.subject`, wordsOf(n.params, to.language)), href: n.link ? `${links.origin}${n.link}` : null })),
      action: { label: t('notice.digest.action'), href: `${links.origin}/dashboard` },
      ...footerOf(kind, to, links),
    },
    links.unsubscribe,
  );
}

/**
 * The page a person reaches by the unsubscribe link in a mail's footer: a question with one button
 * (a GET must not unsubscribe: mail scanners open links), then what was done, or that the link is bad.
 */
export function unsubscribePage(language: string | null, state: { kind: NotificationKind; step: 'ask' | 'done' } | 'invalid', action = ''): string {
  const t = mailTranslator(language);
  const body =
    state === 'invalid'
      ? `<p>${escapeHtml(t('unsubscribe.invalid'))}</p>`
      : state.step === 'ask'
        ? `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><p>${escapeHtml(t('unsubscribe.ask', { kind: t(`kind.${state.kind}`) }))}</p><button type="submit">${escapeHtml(t('unsubscribe.button'))}</button></form>`
        : `<p>${escapeHtml(t('unsubscribe.done', { kind: t(`kind.${state.kind}`) }))}</p>`;
  return `<!doctype html><html lang="${mailLanguage(language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(t('unsubscribe.title'))}</title></head><body><main><h1>${escapeHtml(t('unsubscribe.title'))}</h1>${body}</main></body></html>`;
}
