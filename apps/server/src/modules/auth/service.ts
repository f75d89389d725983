// The account rules: sign-up, login, refresh, passwords, profile and trial, built from one-time codes
// (codes.ts), token families (token-families.ts) and account rows (users.ts).
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { LoginData, profilePatchBody, registerBody, TrialStatus, User } from '@mooz/contract/auth';
import { messages } from '@mooz/contract/messages';
import type { Database } from '../../db/client';
import { users } from '../../db/schema/index';
import { HttpError, badRequest, forbidden, tooManyRequests, unauthorized } from '../../http/errors';
import type { Outbox } from '../../infrastructure/outbox';
import { hashPassword, verifyPassword } from '../../infrastructure/passwords';
import type { RateLimiter, RateLimitName } from '../../infrastructure/rate-limiter';
import { verifyRefreshToken } from '../../infrastructure/tokens';
import { hasPurchased } from '../courses';
import { createCodes } from './codes';
import { createLoginLimits } from './login-limits';
import { createTokenFamilies } from './token-families';
import type { Revocation } from './access-tokens';
import { presentUser, type UserRow } from './presenter';
import { changeEmail, insertUser, newStudent } from './users';
import { trialState } from './trial';
import type { NotificationsDoor } from '../notifications';

// The account messages live in the contract, so the web app can show them in the user's language.
const authMessages = {
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
  emailUnchanged: messages.emailUnchanged,
  emailChangeCodeSent: messages.emailChangeCodeSent,
  emailChanged: messages.emailChanged,
} as const;

/** An outbox `code` job: issue a code of `purpose` to the account of `email`, if it may have one. */
export interface CodeRequest {
  email: string;
  purpose: 'verify' | 'reset';
}

interface AuthDeps {
  db: Database;
  outbox: Outbox;
  limiter: RateLimiter;
  jwtSecret: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  trialDays: number;
  now?: () => Date;
  /** Told of each revocation once written (access-tokens.ts). */
  revoked?: (revocation: Revocation) => void;
  /** Security notifications: a password or an email changed, a sign-in from a new device (modules/notifications). */
  notifications?: Pick<NotificationsDoor, 'passwordChanged' | 'emailChanged' | 'signedIn' | 'kick'>;
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

  const loginLimits = createLoginLimits(deps.limiter);
  const codes = createCodes({ db, outbox: deps.outbox, secret: deps.jwtSecret, now });
  const families = createTokenFamilies({
    db,
    secret: deps.jwtSecret,
    accessTokenTtl: deps.accessTokenTtl,
    refreshTokenTtl: deps.refreshTokenTtl,
    now,
    revoked: deps.revoked,
  });

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

  /** A new session of an active account: tokens, the trial fields and the user (login's answer, and verification's). */
  async function signIn(user: UserRow): Promise<LoginData> {
    const tokens = await families.issue(user);
    const presented = await present(user);
    return {
      ...tokens,
      user_type: presented.user_type,
      is_trial: presented.is_trial,
      has_purchased: presented.has_purchased,
      trial_ends_at: presented.trial_ends_at,
      trial_remaining_seconds: presented.trial_remaining_seconds,
      user: presented,
    };
  }

  /** Mail limits count per email and per address whether or not the account exists. */
  async function limitMail(email: string, ip: string) {
    await limit('mailPerIp', ip);
    await limit('mailPerEmail', email);
    await limit('mailPerEmailHourly', email);
  }

  /** Addresses an account may not move to: its own (400), another account's (409). */
  function refuseOwnAddress(user: UserRow, address: string) {
    if (address === user.email.toLowerCase()) throw badRequest(authMessages.emailUnchanged, { new_email: [authMessages.emailUnchanged] });
  }
  async function refuseTakenAddress(address: string) {
    if (await findByEmail(address)) throw new HttpError(409, authMessages.emailTaken, { new_email: [authMessages.emailTaken] });
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
        await codes.write(tx, created, 'verify');
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
      await db.transaction((tx) => codes.write(tx, user, purpose));
      deps.outbox.kick();
    },

    async verifyOtp(email: string, otp: string, purpose: 'verify' | 'reset', ip: string, userAgent?: string) {
      await limit('otpVerifyPerIp', ip);
      const user = await findByEmail(email);
      if (purpose === 'reset') {
        await codes.check(user, 'reset', otp, false);
        return { data: null, message: authMessages.codeValid };
      }
      await codes.check(user, 'verify', otp, true);
      const [verified] = await db.update(users).set({ isActive: true, emailVerifiedAt: now() }).where(eq(users.id, user!.id)).returning();
      // The code proves the mailbox, as the password would: the answer signs in, as login's does (a
      // deactivated account is verified but not signed in; login says why).
      if (verified!.deactivatedAt) return { data: null, message: authMessages.verified };
      const data = await signIn(verified!);
      // Its device is the account's first: remembered, so that a sign-in elsewhere later is told.
      await deps.notifications?.signedIn(verified!.id, userAgent);
      return { data, message: authMessages.verified };
    },

    async login(email: string, password: string, ip: string, userAgent?: string): Promise<{ data: LoginData }> {
      await loginLimits.admit(email, ip);
      const user = await findByEmail(email);
      dummyHash ??= hashPassword('not-a-real-password');
      const ok = await verifyPassword(user?.passwordHash ?? (await dummyHash), password);
      if (!user || !ok) throw unauthorized(messages.invalidCredentials);
      // The right password is no failure, even on an account still to verify.
      await loginLimits.succeeded(email, ip);
      if (user.deactivatedAt) throw forbidden(messages.accountDeactivated);
      if (!user.isActive) throw forbidden(messages.emailNotVerified);
      const data = await signIn(user);
      await deps.notifications?.signedIn(user.id, userAgent);
      return { data };
    },

    async refresh(token: string) {
      const claims = await verifyRefreshToken(deps.jwtSecret, token);
      if (!claims) throw unauthorized(authMessages.invalidRefresh);
      const spent = await families.spend(claims.tokenId);
      if (!spent) {
        // Used or revoked before: someone replays it, so the whole family is burned.
        await families.revokeFamily(claims.familyId);
        throw unauthorized(authMessages.invalidRefresh);
      }
      if (spent.expiresAt <= now()) throw unauthorized(authMessages.invalidRefresh);
      const user = await findById(spent.userId);
      if (!user.isActive || user.deactivatedAt) throw unauthorized(authMessages.invalidRefresh);
      return { data: await families.issue(user, spent.familyId) };
    },

    async logout(token: string) {
      const claims = await verifyRefreshToken(deps.jwtSecret, token);
      if (claims) await families.revokeFamily(claims.familyId);
      return { data: null, message: authMessages.loggedOut };
    },

    async forgotPassword(body: { email: string; otp?: string; new_password?: string }, ip: string) {
      if (body.otp === undefined || body.new_password === undefined) return this.sendOtp(body.email, 'reset', ip);
      await limit('otpVerifyPerIp', ip);
      const user = await findByEmail(body.email);
      await codes.check(user, 'reset', body.otp, true);
      // The code proves the mailbox, so an account never verified becomes verified too.
      await db
        .update(users)
        .set({
          passwordHash: await hashPassword(body.new_password),
          isActive: true,
          emailVerifiedAt: user!.emailVerifiedAt ?? now(),
        })
        .where(eq(users.id, user!.id));
      await families.revokeAllOf(user!.id);
      await deps.notifications?.passwordChanged(user!.id);
      // The mailed code proved the mailbox: its failed logins from this address are forgotten.
      await loginLimits.forget(body.email, ip);
      return { data: null, message: authMessages.passwordReset };
    },

    async changePassword(userId: number, familyId: string, oldPassword: string, newPassword: string) {
      const user = await findById(userId);
      if (!(await verifyPassword(user.passwordHash, oldPassword))) {
        throw badRequest(authMessages.wrongPassword, { old_password: [authMessages.wrongPassword] });
      }
      await db.update(users).set({ passwordHash: await hashPassword(newPassword) }).where(eq(users.id, userId));
      await families.revokeAllOf(userId, familyId);
      await deps.notifications?.passwordChanged(userId);
      return { data: null, message: authMessages.passwordChanged };
    },

    /**
     * An email change, step one: the current password (counted as a login attempt, so it cannot be
     * guessed here faster than at login), then a code to the new address, under the code mails' limits.
     */
    async changeEmail(userId: number, body: { new_email: string; password: string }, ip: string) {
      const user = await findById(userId);
      await loginLimits.admit(user.email, ip);
      if (!(await verifyPassword(user.passwordHash, body.password))) {
        throw badRequest(authMessages.wrongPassword, { password: [authMessages.wrongPassword] });
      }
      await loginLimits.succeeded(user.email, ip);
      refuseOwnAddress(user, body.new_email);
      // Before the taken check: whether an address has an account is learnt no faster than mails go.
      await limitMail(body.new_email, ip);
      await refuseTakenAddress(body.new_email);
      await db.transaction((tx) => codes.write(tx, user, 'email_change', body.new_email));
      deps.outbox.kick();
      return { data: null, message: authMessages.emailChangeCodeSent };
    },

    /**
     * Step two: the code proves the new mailbox. The address, the end of every code still open (those
     * went to the old address) and the notice to the previous address commit together.
     */
    async confirmEmailChange(userId: number, body: { new_email: string; otp: string }, ip: string): Promise<{ data: User; message: string }> {
      await limit('otpVerifyPerIp', ip);
      const user = await findById(userId);
      refuseOwnAddress(user, body.new_email);
      // The code first: without it, nothing is said of the address (taken since the code went: the
      // unique index refuses it, 409).
      await codes.check(user, 'email_change', body.otp, true, body.new_email);
      const changed = await db.transaction(async (tx) => {
        const row = await changeEmail(tx, userId, body.new_email, now());
        await codes.spendAll(tx, userId);
        await deps.notifications?.emailChanged(tx, userId, user.email, row.email);
        return row;
      });
      deps.notifications?.kick();
      return { data: await present(changed), message: authMessages.emailChanged };
    },

    async profile(userId: number): Promise<{ data: User }> {
      return { data: await present(await findById(userId)) };
    },

    async updateProfile(userId: number, patch: z.infer<typeof profilePatchBody>) {
      const values: Partial<typeof users.$inferInsert> = {};
      if (patch.first_name !== undefined) values.firstName = patch.first_name;
      if (patch.last_name !== undefined) values.lastName = patch.last_name;
      if (patch.phone !== undefined) values.phone = patch.phone;
      if (patch.language !== undefined) values.language = patch.language;
      if (Object.keys(values).length) await db.update(users).set(values).where(eq(users.id, userId));
      return { data: await present(await findById(userId)), message: authMessages.profileUpdated };
    },

    async trialStatus(userId: number): Promise<{ data: TrialStatus }> {
      const user = await findById(userId);
      return { data: { ...trialState(user, await hasPurchased(db, userId), now()), trial_days: deps.trialDays } };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
