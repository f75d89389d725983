// Outgoing mail: SMTP when SMTP_URL is set; otherwise each mail is written to DATA_DIR/outbox/ as one
// JSON file {to, subject, text, html, sent_at} and logged, so development and tests can read it.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers: List-Unsubscribe and List-Unsubscribe-Post (RFC 8058) on notification mails. */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export function createMailer(options: { smtpUrl?: string; from: string; dataDir: string; log: FastifyBaseLogger }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
        options.log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      },
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  return {
    async send(mail) {
      mkdirSync(outbox, { recursive: true });
      const sentAt = new Date().toISOString();
      const file = path.join(outbox, `${sentAt.replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.json`);
      writeFileSync(file, JSON.stringify({ ...mail, sent_at: sentAt }, null, 2));
      options.log.info({ to: mail.to, subject: mail.subject, file }, 'mail written to outbox');
    },
  };
}
