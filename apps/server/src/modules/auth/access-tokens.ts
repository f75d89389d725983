// Who is behind an access token, answered from memory: the token's signature once per token, the
// account (active? which role? trial until when?) and the token family (revoked?) once per few seconds
// at most. Memory never outlives what it was read from:
//   - a revoked family (logout, a replayed refresh token, a password change or reset) is dropped here
//     the moment token-families.ts has revoked it, and in every other process through the change bus;
//   - any write to the users table (an account deactivated, a role or a trial changed), through this
//     process's database handle, drops every account at once, and elsewhere through the bus;
//   - what reaches a process by neither way (the bus down, a hand-written SQL change) lasts at most
//     the cache's lifetime (`ttlMs`, a few seconds).
// HTTP requests and the signalling server's handshake both ask here.
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { buildAbility, rulesFor, type AppAbility, type UserType } from '@mooz/contract/permissions';
import type { Database } from '../../db/client';
import { refreshTokens, users } from '../../db/schema/index';
import type { AuthUser } from '../../http/authenticate';
import { cachedMap, notKept } from '../../infrastructure/cache';
import type { Change, ChangeBus } from '../../infrastructure/change-bus';
import { verifyAccessToken, type VerifiedAccess } from '../../infrastructure/tokens';

interface Account {
  id: number;
  userType: UserType;
  isActive: boolean;
  trialEndsAt: Date | null;
  ability: AppAbility;
}

export type Revocation = Extract<Change, { kind: 'family' } | { kind: 'families-of' }>;

interface AccessTokensDeps {
  db: Database;
  secret: string;
  changes: ChangeBus;
  /** How long an account or a family may be believed without news of a change. */
  ttlMs: number;
  /** Signatures remembered: one entry per live token, dropped when it expires. */
  maxTokens?: number;
  now?: () => number;
}

export function createAccessTokens(deps: AccessTokensDeps) {
  const { db, changes } = deps;
  const now = deps.now ?? Date.now;
  const maxTokens = deps.maxTokens ?? 50_000;

  // Prepared once: a miss (every few seconds per active user) costs the database a plan it already has
  // and this process less than half the CPU of building the query anew.
  const accountQuery = db
    .select({ userType: users.userType, isActive: users.isActive, deactivatedAt: users.deactivatedAt, trialEndsAt: users.trialEndsAt })
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('mooz_access_account');
  const revokedQuery = db
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.familyId, sql.placeholder('familyId')), isNotNull(refreshTokens.revokedAt)))
    .limit(1)
    .prepare('mooz_access_family_revoked');

  const accounts = cachedMap<number, Account | null>(
    async (id) => {
      const [row] = await accountQuery.execute({ id });
      if (!row) return null;
      // A deactivated account is no longer active, whatever its verification says.
      const { deactivatedAt, ...account } = row;
      return { id, ...account, isActive: account.isActive && !deactivatedAt, ability: buildAbility(rulesFor(row.userType, id)) };
    },
    { ttlMs: deps.ttlMs, maxEntries: 100_000, now },
  );

  // Logout and password changes revoke the family; its access tokens die with it.
  const revokedFamilies = cachedMap<string, boolean>(
    async (familyId) => (await revokedQuery.execute({ familyId })).length > 0,
    { ttlMs: deps.ttlMs, maxEntries: 100_000, now },
  );
  // Which user each family remembered as live belongs to, for a "revoke all of theirs".
  const familyUsers = new Map<string, number>();

  const signatures = new Map<string, VerifiedAccess>();
  async function verified(token: string): Promise<VerifiedAccess | null> {
    const seconds = Math.floor(now() / 1000);
    const known = signatures.get(token);
    if (known) {
      if (known.expiresAt > seconds) return known;
      signatures.delete(token);
      return null;
    }
    const claims = await verifyAccessToken(deps.secret, token);
    if (!claims) return null;
    while (signatures.size >= maxTokens) signatures.delete(signatures.keys().next().value as string);
    signatures.set(token, claims);
    return claims;
  }

  changes.onTables(['users'], () => accounts.invalidate());
  changes.subscribe((change) => {
    if (change.kind === 'family') revokedFamilies.invalidate(change.familyId);
    else if (change.kind === 'families-of') {
      revokedFamilies.invalidateWhere((_, familyId) => familyId !== change.except && familyUsers.get(familyId) === change.userId);
    } else if (change.kind === 'everything' || (change.kind === 'tables' && change.tables.includes('*'))) {
      revokedFamilies.invalidate();
    }
  });

  function userOf(claims: VerifiedAccess, account: Account | null, revoked: boolean): AuthUser | null {
    if (!account?.isActive || revoked) return null;
    if (familyUsers.get(claims.familyId) !== claims.userId) {
      while (familyUsers.size >= 100_000) familyUsers.delete(familyUsers.keys().next().value as string);
      familyUsers.set(claims.familyId, claims.userId);
    }
    return { id: account.id, userType: account.userType, familyId: claims.familyId, ability: account.ability };
  }

  return {
    /** The signed-in user behind an access token, or null when it is invalid, expired or revoked. */
    async userFor(token: string): Promise<AuthUser | null> {
      const claims = await verified(token);
      if (!claims) return null;
      const [account, revoked] = await Promise.all([accounts.get(claims.userId), revokedFamilies.get(claims.familyId)]);
      return userOf(claims, account, revoked);
    },

    /**
     * What `userFor` answers, without a promise, when all it needs is in memory (the token's signature
     * already checked, its account and family read within their lifetime, as `userFor` would use them);
     * undefined when it would have to wait for a read: ask `userFor` then. The hot path of every
     * authenticated request (http/authenticate.ts).
     */
    userKnown(token: string): AuthUser | null | undefined {
      const claims = signatures.get(token);
      if (!claims || claims.expiresAt <= Math.floor(now() / 1000)) return undefined;
      const account = accounts.peek(claims.userId);
      if (account === notKept) return undefined;
      const revoked = revokedFamilies.peek(claims.familyId);
      if (revoked === notKept) return undefined;
      return userOf(claims, account, revoked);
    },

    /** An account as last read (at most `ttlMs` ago, and not since a write to users): null when there is none. */
    account: (id: number) => accounts.get(id),

    /** Called once a revocation is written: drops it here and tells the other processes. */
    revoked(revocation: Revocation) {
      changes.publish(revocation);
    },
  };
}

export type AccessTokens = ReturnType<typeof createAccessTokens>;
