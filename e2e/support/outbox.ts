// Mails the e2e server wrote to its outbox (no SMTP in tests), read as a user reads their inbox.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { limits } from '@mooz/contract/limits';

export function latestCodeFor(email: string, dataDir = process.env.MOOZ_E2E_DATA_DIR!): string | null {
  const dir = join(dataDir, 'outbox');
  if (!existsSync(dir)) return null;
  const mails = readdirSync(dir)
    .sort()
    .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as { to: string; text: string });
  // The newest mail that carries a code: other mails (a password changed, a receipt) come between.
  const codeOf = (text: string) => text.match(new RegExp(`\\b(\\d{${limits.otpLength}})\\b`))?.[1] ?? null;
  const mail = mails.filter((m) => m.to === email && codeOf(m.text)).at(-1);
  return mail ? codeOf(mail.text) : null;
}

/** Waits for a new code to arrive for `email` (different from `previous`); mail goes out after the answer. */
export async function waitForCode(email: string, previous: string | null = null, dataDir?: string): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const code = latestCodeFor(email, dataDir);
    if (code && code !== previous) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no code mailed to ${email}`);
}
