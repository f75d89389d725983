// Making accounts: the one place that writes a new user row, for sign-up, for admins creating staff
// (HTTP or the command line) and for tests; and the one that moves a row to another address.
import type { z } from 'zod';
import type { createUserBody, registerBody } from '@mooz/contract/auth';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { users } from '../../db/schema/index';
import { HttpError } from '../../http/errors';
import { messages } from '@mooz/contract/messages';
import { hashPassword } from '../../infrastructure/passwords';
import { trialEndsAt } from './trial';

export type UserRow = typeof users.$inferSelect;
type Executor = Pick<Database, 'insert'>;

function isUniqueViolation(error: unknown): boolean {
  for (let cause = error as { code?: string; cause?: unknown } | undefined, i = 0; cause && i < 3; cause = cause.cause as typeof cause, i++) {
    if (cause.code === '23505') return true;
  }
  return false;
}

/** Inserts a user; a taken email (whatever its case) is the contract's 409. */
export async function insertUser(executor: Executor, values: typeof users.$inferInsert): Promise<UserRow> {
  try {
    const [row] = await executor.insert(users).values(values).returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, messages.emailTaken, { email: [messages.emailTaken] });
    throw error;
  }
}

/** Moves an account to a new address, proven by a code sent there; a taken one (whatever its case) is the contract's 409. */
export async function changeEmail(executor: Pick<Database, 'update'>, userId: number, email: string, provenAt: Date): Promise<UserRow> {
  try {
    const [row] = await executor.update(users).set({ email, emailVerifiedAt: provenAt }).where(eq(users.id, userId)).returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, messages.emailTaken, { new_email: [messages.emailTaken] });
    throw error;
  }
}

/** A self-registered student: inactive until the emailed code comes back, on trial from now. */
export function newStudent(
  body: z.infer<typeof registerBody>,
  passwordHash: string,
  language: string | null,
  options: { trialDays: number; now: Date },
): typeof users.$inferInsert {
  return {
    email: body.email,
    passwordHash,
    firstName: body.first_name,
    lastName: body.last_name,
    phone: body.phone ?? null,
    userType: 'student',
    isActive: false,
    language,
    dateJoined: options.now,
    trialEndsAt: trialEndsAt(options.now, options.trialDays),
  };
}

/** An account an admin makes: active and verified at once; a student one starts a trial. */
export async function createActiveUser(
  db: Executor,
  body: z.infer<typeof createUserBody>,
  options: { trialDays: number; now?: Date },
): Promise<UserRow> {
  const created = options.now ?? new Date();
  return insertUser(db, {
    email: body.email,
    passwordHash: await hashPassword(body.password),
    firstName: body.first_name,
    lastName: body.last_name,
    userType: body.user_type,
    isActive: true,
    emailVerifiedAt: created,
    dateJoined: created,
    trialEndsAt: body.user_type === 'student' ? trialEndsAt(created, options.trialDays) : null,
  });
}
