// The account mails, in the user's language when known (English otherwise), as plain text and HTML.
// Their words are in the mail catalogues (infrastructure/mail-text.ts).
import { limits } from '@mooz/contract/limits';
import type { Mail } from '../../infrastructure/mail';
import { escapeHtml as escape, mailTranslator } from '../../infrastructure/mail-text';

export { mailCatalogues } from '../../infrastructure/mail-text';

type Purpose = 'verify' | 'reset' | 'email_change';

export function codeMail(options: { to: string; firstName: string; code: string; purpose: Purpose; language?: string | null }): Mail {
  const t = mailTranslator(options.language);
  const greeting = t('greeting', { name: options.firstName });
  const intro = t(`${options.purpose}.intro`);
  const expires = t('code.expires', { minutes: limits.otpTtlSeconds / 60 });
  const ignore = t('code.ignore');
  return {
    to: options.to,
    subject: t(`${options.purpose}.subject`),
    text: `${greeting}\n\n${intro}\n\n${options.code}\n\n${expires}\n${ignore}\n`,
    html: `<p>${escape(greeting)}</p><p>${escape(intro)}</p>
<p style="font-size:28px;font-weight:700;letter-spacing:6px;font-family:monospace">${options.code}</p>
<p>${escape(expires)}<br>${escape(ignore)}</p>`,
  };
}
