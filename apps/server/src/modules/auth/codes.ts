// One-time codes: six digits, stored as an HMAC, valid for a while, a few tries each. Writing one
// replaces the earlier one of the same purpose and puts its mail in the outbox in the same transaction.
// An email change's code goes to the new address and is bound to it (the address is in its HMAC), so
// it proves that mailbox and no other.
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { limits } from '@mooz/contract/limits';
import { messages } from '@mooz/contract/messages';
import type { Database } from '../../db/client';
import { otpCodes } from '../../db/schema/index';
import { HttpError } from '../../http/errors';
import type { Outbox } from '../../infrastructure/outbox';
import { codeMail } from './mails';
import type { UserRow } from './users';

type CodePurpose = 'verify' | 'reset' | 'email_change';
type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

export function createCodes(deps: { db: Database; outbox: Outbox; secret: string; now: () => Date }) {
  const { db, now } = deps;
  const hashCode = (code: string, address?: string) =>
    createHmac('sha256', deps.secret)
      .update(address === undefined ? code : `${code}\n${address}`)
      .digest('hex');

  /**
   * Writes a new code, replacing any earlier one of the same purpose, and its mail, in `tx`. `address`:
   * where an email change's code goes (the account's own address otherwise).
   */
  async function write(tx: Transaction, user: UserRow, purpose: CodePurpose, address?: string) {
    const code = String(randomInt(0, 10 ** limits.otpLength)).padStart(limits.otpLength, '0');
    await tx
      .update(otpCodes)
      .set({ consumedAt: now() })
      .where(and(eq(otpCodes.userId, user.id), eq(otpCodes.purpose, purpose), isNull(otpCodes.consumedAt)));
    await tx.insert(otpCodes).values({
      userId: user.id,
      purpose,
      codeHash: hashCode(code, address),
      expiresAt: new Date(now().getTime() + limits.otpTtlSeconds * 1000),
    });
    await deps.outbox.add(tx, 'mail', codeMail({ to: address ?? user.email, firstName: user.firstName, code, purpose, language: user.language }));
  }

  /**
   * Checks a code; consumes it when `consume`. The try is counted before the comparison, in one
   * conditional UPDATE: however many guesses arrive at once, at most `otpMaxAttempts` are ever
   * compared, and the one that uses up the last try burns the code. A burned code stays the current
   * one, with no tries left, until a new one is sent: every later try, the right code included, is
   * told it is burned (and so to ask for a new one), not that it is wrong. `address`: the one an email
   * change's code was sent to; any other makes it a wrong try.
   */
  async function check(user: UserRow | undefined, purpose: CodePurpose, code: string, consume: boolean, address?: string) {
    const invalid = () => new HttpError(400, messages.codeInvalid, { otp: [messages.codeInvalid] });
    const burned = () => new HttpError(400, messages.codeBurned, { otp: [messages.codeBurned] });
    if (!user) throw invalid();
    const current = db
      .select({ id: otpCodes.id })
      .from(otpCodes)
      .where(and(eq(otpCodes.userId, user.id), eq(otpCodes.purpose, purpose), isNull(otpCodes.consumedAt)))
      .orderBy(desc(otpCodes.createdAt))
      .limit(1);
    const [tried] = await db
      .update(otpCodes)
      .set({ attempts: sql`${otpCodes.attempts} + 1` })
      .where(
        and(
          eq(otpCodes.id, sql`(${current})`),
          // Re-checked on the row itself when concurrent tries queue on its lock.
          isNull(otpCodes.consumedAt),
          lt(otpCodes.attempts, limits.otpMaxAttempts),
          gt(otpCodes.expiresAt, now()),
        ),
      )
      .returning({ id: otpCodes.id, codeHash: otpCodes.codeHash, attempts: otpCodes.attempts });
    if (!tried) {
      const [spent] = await db.select({ attempts: otpCodes.attempts }).from(otpCodes).where(eq(otpCodes.id, sql`(${current})`));
      throw spent && spent.attempts >= limits.otpMaxAttempts ? burned() : invalid();
    }
    const matches = timingSafeEqual(Buffer.from(tried.codeHash, 'hex'), Buffer.from(hashCode(code, address), 'hex'));
    if (!matches) throw tried.attempts < limits.otpMaxAttempts ? invalid() : burned();
    if (consume) {
      // Only one request may spend a code, even when two arrive together.
      const spent = await db
        .update(otpCodes)
        .set({ consumedAt: now() })
        .where(and(eq(otpCodes.id, tried.id), isNull(otpCodes.consumedAt)))
        .returning({ id: otpCodes.id });
      if (!spent.length) throw invalid();
    }
  }

  /** Spends every code of the account still open (its address changed: codes sent to the old one no longer count). */
  async function spendAll(tx: Transaction, userId: number) {
    await tx.update(otpCodes).set({ consumedAt: now() }).where(and(eq(otpCodes.userId, userId), isNull(otpCodes.consumedAt)));
  }

  return { write, check, spendAll };
}
