// The account mails, in the user's language when known (English otherwise), as plain text and HTML.
import type { Language } from '@mooz/contract/limits';
import type { Mail } from '../../services/mail';

type Purpose = 'verify' | 'reset';

const copy: Record<Language, Record<Purpose, { subject: string; intro: string }> & { expires: string; ignore: string; hello: string }> = {
  en: {
    verify: { subject: 'Your Mooz verification code', intro: 'Use this code to verify your email address:' },
    reset: { subject: 'Your Mooz password reset code', intro: 'Use this code to set a new password:' },
    expires: 'The code expires in 10 minutes.',
    ignore: 'If you did not ask for it, you can ignore this email.',
    hello: 'Hello',
  },
  fr: {
    verify: { subject: 'Votre code de vérification Mooz', intro: 'Utilisez ce code pour vérifier votre adresse e-mail :' },
    reset: { subject: 'Votre code de réinitialisation Mooz', intro: 'Utilisez ce code pour définir un nouveau mot de passe :' },
    expires: 'Le code expire dans 10 minutes.',
    ignore: "Si vous n'avez rien demandé, ignorez cet e-mail.",
    hello: 'Bonjour',
  },
  de: {
    verify: { subject: 'Ihr Mooz-Bestätigungscode', intro: 'Mit diesem Code bestätigen Sie Ihre E-Mail-Adresse:' },
    reset: { subject: 'Ihr Mooz-Code zum Zurücksetzen', intro: 'Mit diesem Code legen Sie ein neues Passwort fest:' },
    expires: 'Der Code läuft in 10 Minuten ab.',
    ignore: 'Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail.',
    hello: 'Hallo',
  },
  pt: {
    verify: { subject: 'O seu código de verificação Mooz', intro: 'Use este código para verificar o seu e-mail:' },
    reset: { subject: 'O seu código para redefinir a senha Mooz', intro: 'Use este código para definir uma nova senha:' },
    expires: 'O código expira em 10 minutos.',
    ignore: 'Se não pediu este código, ignore este e-mail.',
    hello: 'Olá',
  },
};

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function codeMail(options: { to: string; firstName: string; code: string; purpose: Purpose; language?: string | null }): Mail {
  const lang = (options.language && options.language in copy ? options.language : 'en') as Language;
  const t = copy[lang];
  const greeting = `${t.hello} ${options.firstName},`;
  return {
    to: options.to,
    subject: t[options.purpose].subject,
    text: `${greeting}\n\n${t[options.purpose].intro}\n\n${options.code}\n\n${t.expires}\n${t.ignore}\n`,
    html: `<p>${escape(greeting)}</p><p>${escape(t[options.purpose].intro)}</p>
<p style="font-size:28px;font-weight:700;letter-spacing:6px;font-family:monospace">${options.code}</p>
<p>${escape(t.expires)}<br>${escape(t.ignore)}</p>`,
  };
}
