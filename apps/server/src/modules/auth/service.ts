// The account rules: sign-up, one-time codes, login, token rotation, passwords, profile and trial.
import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { createUserBody, LoginData, profilePatchBody, registerBody, TrialStatus, User } from '@mooz/contract/auth';
import { limits } from '@mooz/contract/limits';
import { messages } from '@mooz/contract/messages';
import type { Database } from '../../db/client';
import { otpCodes, refreshTokens, users } from '../../db/schema/index';
import { HttpError, badRequest, forbidden, tooManyRequests, unauthorized } from '../../http/errors';
import type { Outbox } from '../../services/outbox';
import { hashPassword, verifyPassword } from '../../services/passwords';
import type { RateLimiter, RateLimitName } from '../../services/rate-limiter';
import { signAccessToken, signRefreshToken, verifyRefreshToken } from '../../services/tokens';
import { hasPurchased } from '../courses/purchases';
import { codeMail } from './mails';
import { presentUser, type UserRow } from './presenter';
import { createActiveUser, insertUser, newStudent } from './users';
import { trialState } from './trial';

// The account messages live in the contract, so the web app can show them in the user's language.
export const authMessages = {
  registered: messages.registered,
  codeSent: messages.codeSent,
  codeInvalid: messages.codeInvalid,
  codeBurned: messages.codeBurned,
  verified: messages.emailVerified,
  codeValid: messages.codeValid,
  emailTaken: messages.emailTaken,
  loggedOut: messages.loggedOut,
  invalidRefresh: messages.unauthorized,
  passwordReset: messages.passwordReset,
  passwordChanged: messages.passwordChanged,
  wrongPassword: messages.wrongPassword,
  profileUpdated: messages.profileUpdated,
  userCreated: messages.userCreated,
} as const;

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** An outbox `code` job: issue a code of `purpose` to the account of `email`, if it may have one. */
export interface CodeRequest {
  email: string;
  purpose: 'verify' | 'reset';
}

export interface AuthDeps {
  db: Database;
  outbox: Outbox;
  limiter: RateLimiter;
  jwtSecret: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  trialDays: number;
  now?: () => Date;
}

// A fixed hash to verify against when the email is unknown, so a miss takes as long as a hit.
let dummyHash: Promise<string> | undefined;

export function createAuthService(deps: AuthDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  async function limit(name: RateLimitName, key: string) {
    const wait = await deps.limiter.hit(name, key);
    if (wait > 0) throw tooManyRequests(wait);
  }

  const hashCode = (code: string) => createHmac('sha256', deps.jwtSecret).update(code).digest('hex');

  async function findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(sql`lower(${users.email})`, email.toLowerCase()));
    return row;
  }

  async function findById(id: number): Promise<UserRow> {
    const [row] = await db.select().from(users).where(eq(users.id, id));
    if (!row) throw unauthorized();
    return row;
  }

  async function present(row: UserRow) {
    return presentUser(row, await hasPurchased(db, row.id), now());
  }

  /** Writes a new code, replacing any earlier one of the same purpose, and its mail, in `tx`. */
  async function writeCode(tx: Transaction, user: UserRow, purpose: 'verify' | 'reset') {
    const code = String(randomInt(0, 10 ** limits.otpLength)).padStart(limits.otpLength, '0');
    await tx
      .update(otpCodes)
      .set({ consumedAt: now() })
      .where(and(eq(otpCodes.userId, user.id), eq(otpCodes.purpose, purpose), isNull(otpCodes.consumedAt)));
    await tx.insert(otpCodes).values({
      userId: user.id,
      purpose,
      codeHash: hashCode(code),
      expiresAt: new Date(now().getTime() + limits.otpTtlSeconds * 1000),
    });
    await deps.outbox.add(tx, 'mail', codeMail({ to: user.email, firstName: user.firstName, code, purpose, language: user.language }));
  }

  /** Mail limits count per email and per address whether or not the account exists. */
  async function limitMail(email: string, ip: string) {
    await limit('mailPerIp', ip);
    await limit('mailPerEmail', email);
    await limit('mailPerEmailHourly', email);
  }

  /**
   * Checks a code; consumes it when `consume`. The try is counted before the comparison, in one
   * conditional UPDATE: however many guesses arrive at once, at most `otpMaxAttempts` are ever
   * compared, and the one that uses up the last try burns the code.
   */
  async function checkCode(user: UserRow | undefined, purpose: 'verify' | 'reset', code: string, consume: boolean) {
    const invalid = () => new HttpError(400, authMessages.codeInvalid, { otp: [authMessages.codeInvalid] });
    const burned = () => new HttpError(400, authMessages.codeBurned, { otp: [authMessages.codeBurned] });
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
    if (!tried) throw invalid();
    const matches = timingSafeEqual(Buffer.from(tried.codeHash, 'hex'), Buffer.from(hashCode(code), 'hex'));
    if (!matches) {
      if (tried.attempts < limits.otpMaxAttempts) throw invalid();
      await db.update(otpCodes).set({ consumedAt: now() }).where(eq(otpCodes.id, tried.id));
      throw burned();
    }
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

  async function issueTokens(user: UserRow, familyId: string = randomUUID()) {
    const tokenId = randomUUID();
    const expiresAt = new Date(now().getTime() + deps.refreshTokenTtl * 1000);
    await db.insert(refreshTokens).values({ id: tokenId, userId: user.id, familyId, expiresAt });
    const [access, refresh] = await Promise.all([
      signAccessToken(deps.jwtSecret, { userId: user.id, userType: user.userType, familyId }, deps.accessTokenTtl),
      signRefreshToken(deps.jwtSecret, { tokenId, userId: user.id, familyId }, expiresAt),
    ]);
    return { access, refresh };
  }

  async function revokeFamily(familyId: string) {
    await db
      .update(refreshTokens)
      .set({ revokedAt: now() })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  }

  /** Revokes every session of the user, or every one but `keepFamilyId`. */
  async function revokeSessions(userId: number, keepFamilyId?: string) {
    await db
      .update(refreshTokens)
      .set({ revokedAt: now() })
      .where(
        and(
          eq(refreshTokens.userId, userId),
          isNull(refreshTokens.revokedAt),
          keepFamilyId ? ne(refreshTokens.familyId, keepFamilyId) : undefined,
        ),
      );
  }

  return {
    async register(body: z.infer<typeof registerBody>, ip: string, language?: string) {
      await limit('registerPerIp', ip);
      if (await findByEmail(body.email)) {
        throw new HttpError(409, authMessages.emailTaken, { email: [authMessages.emailTaken] });
      }
      await limitMail(body.email, ip);
      const passwordHash = await hashPassword(body.password);
      // The account, its code and the code's mail commit together: a crash never leaves an account
      // that has no code on its way.
      const user = await db.transaction(async (tx) => {
        const created = await insertUser(tx, newStudent(body, passwordHash, body.language ?? language ?? null, { trialDays: deps.trialDays, now: now() }));
        await writeCode(tx, created, 'verify');
        return created;
      });
      deps.outbox.kick();
      return { data: await present(user), message: authMessages.registered };
    },

    async sendOtp(email: string, purpose: 'verify' | 'reset', ip: string) {
      await limitMail(email, ip);
      // Whether the account exists is decided after the answer, by the outbox: the request does the
      // same work, and takes the same time, either way.
      await deps.outbox.add(db, 'code', { email, purpose } satisfies CodeRequest);
      deps.outbox.kick();
      return { data: null, message: authMessages.codeSent };
    },

    /** The outbox's `code` job: a code and its mail, for accounts that may have one. */
    async issueCode({ email, purpose }: CodeRequest) {
      const user = await findByEmail(email);
      // Verification codes go only to accounts that still need one.
      if (!user || (purpose === 'verify' && user.isActive)) return;
      await db.transaction((tx) => writeCode(tx, user, purpose));
      deps.outbox.kick();
    },

    async verifyOtp(email: string, otp: string, purpose: 'verify' | 'reset', ip: string) {
      await limit('otpVerifyPerIp', ip);
      const user = await findByEmail(email);
      if (purpose === 'reset') {
        await checkCode(user, 'reset', otp, false);
        return { data: null, message: authMessages.codeValid };
      }
      await checkCode(user, 'verify', otp, true);
      await db.update(users).set({ isActive: true, emailVerifiedAt: now() }).where(eq(users.id, user!.id));
      return { data: null, message: authMessages.verified };
    },

    async login(email: string, password: string, ip: string): Promise<{ data: LoginData }> {
      await limit('loginPerIp', ip);
      await limit('loginPerEmail', email);
      const user = await findByEmail(email);
      dummyHash ??= hashPassword('not-a-real-password');
      const ok = await verifyPassword(user?.passwordHash ?? (await dummyHash), password);
      if (!user || !ok) throw unauthorized(messages.invalidCredentials);
      if (!user.isActive) throw forbidden(messages.emailNotVerified);
      const tokens = await issueTokens(user);
      const presented = await present(user);
      return {
        data: {
          ...tokens,
          user_type: presented.user_type,
          is_trial: presented.is_trial,
          has_purchased: presented.has_purchased,
          trial_ends_at: presented.trial_ends_at,
          trial_remaining_seconds: presented.trial_remaining_seconds,
          user: presented,
        },
      };
    },

    async refresh(token: string) {
      const claims = await verifyRefreshToken(deps.jwtSecret, token);
      if (!claims) throw unauthorized(authMessages.invalidRefresh);
      // Spend the token: only a live, unused one can be spent, and only once.
      const [spent] = await db
        .update(refreshTokens)
        .set({ usedAt: now() })
        .where(and(eq(refreshTokens.id, claims.tokenId), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
        .returning();
      if (!spent) {
        // Used or revoked before: someone replays it, so the whole family is burned.
        await revokeFamily(claims.familyId);
        throw unauthorized(authMessages.invalidRefresh);
      }
      if (spent.expiresAt <= now()) throw unauthorized(authMessages.invalidRefresh);
      const user = await findById(spent.userId);
      if (!user.isActive) throw unauthorized(authMessages.invalidRefresh);
      return { data: await issueTokens(user, spent.familyId) };
    },

    async logout(token: string) {
      const claims = await verifyRefreshToken(deps.jwtSecret, token);
      if (claims) await revokeFamily(claims.familyId);
      return { data: null, message: authMessages.loggedOut };
    },

    async forgotPassword(body: { email: string; otp?: string; new_password?: string }, ip: string) {
      if (body.otp === undefined || body.new_password === undefined) return this.sendOtp(body.email, 'reset', ip);
      await limit('otpVerifyPerIp', ip);
      const user = await findByEmail(body.email);
      await checkCode(user, 'reset', body.otp, true);
      // The code proves the mailbox, so an account never verified becomes verified too.
      await db
        .update(users)
        .set({
          passwordHash: await hashPassword(body.new_password),
          isActive: true,
          emailVerifiedAt: user!.emailVerifiedAt ?? now(),
        })
        .where(eq(users.id, user!.id));
      await revokeSessions(user!.id);
      return { data: null, message: authMessages.passwordReset };
    },

    async changePassword(userId: number, familyId: string, oldPassword: string, newPassword: string) {
      const user = await findById(userId);
      if (!(await verifyPassword(user.passwordHash, oldPassword))) {
        throw badRequest(authMessages.wrongPassword, { old_password: [authMessages.wrongPassword] });
      }
      await db.update(users).set({ passwordHash: await hashPassword(newPassword) }).where(eq(users.id, userId));
      await revokeSessions(userId, familyId);
      return { data: null, message: authMessages.passwordChanged };
    },

    async profile(userId: number): Promise<{ data: User }> {
      return { data: await present(await findById(userId)) };
    },

    async updateProfile(userId: number, patch: z.infer<typeof profilePatchBody>) {
      const values: Partial<typeof users.$inferInsert> = {};
      if (patch.first_name !== undefined) values.firstName = patch.first_name;
      if (patch.last_name !== undefined) values.lastName = patch.last_name;
      if (patch.phone !== undefined) values.phone = patch.phone;
      if (Object.keys(values).length) await db.update(users).set(values).where(eq(users.id, userId));
      return { data: await present(await findById(userId)), message: authMessages.profileUpdated };
    },

    async trialStatus(userId: number): Promise<{ data: TrialStatus }> {
      const user = await findById(userId);
      return { data: { ...trialState(user, await hasPurchased(db, userId), now()), trial_days: deps.trialDays } };
    },

    async createUser(body: z.infer<typeof createUserBody>) {
      const user = await createActiveUser(db, body, { trialDays: deps.trialDays, now: now() });
      return { data: await present(user), message: authMessages.userCreated };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
