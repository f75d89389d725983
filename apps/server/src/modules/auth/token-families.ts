// Token families: a login starts a family of refresh tokens; each refresh spends one and issues the
// next; a replayed (already spent) token burns its whole family, and with it the family's access tokens.
import { randomUUID } from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { refreshTokens } from '../../db/schema/index';
import { signAccessToken, signRefreshToken } from '../../infrastructure/tokens';
import type { UserRow } from './users';
import type { Revocation } from './access-tokens';

interface TokenFamiliesDeps {
  db: Database;
  secret: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  now: () => Date;
  /** Told once a revocation is written, so that no memory of the family outlives it (access-tokens.ts). */
  revoked?: (revocation: Revocation) => void;
}

export function createTokenFamilies(deps: TokenFamiliesDeps) {
  const { db, now } = deps;

  async function issue(user: UserRow, familyId: string = randomUUID()) {
    const tokenId = randomUUID();
    const expiresAt = new Date(now().getTime() + deps.refreshTokenTtl * 1000);
    await db.insert(refreshTokens).values({ id: tokenId, userId: user.id, familyId, expiresAt });
    const [access, refresh] = await Promise.all([
      signAccessToken(deps.secret, { userId: user.id, userType: user.userType, familyId }, deps.accessTokenTtl),
      signRefreshToken(deps.secret, { tokenId, userId: user.id, familyId }, expiresAt),
    ]);
    return { access, refresh };
  }

  async function revokeFamily(familyId: string) {
    await db
      .update(refreshTokens)
      .set({ revokedAt: now() })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
    deps.revoked?.({ kind: 'family', familyId });
  }

  /** Revokes every session of the user, or every one but `keepFamilyId`. */
  async function revokeAllOf(userId: number, keepFamilyId?: string) {
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
    deps.revoked?.({ kind: 'families-of', userId, ...(keepFamilyId && { except: keepFamilyId }) });
  }

  /** Spends a live, unused refresh token: only one request can, and only once. */
  async function spend(tokenId: string) {
    const [spent] = await db
      .update(refreshTokens)
      .set({ usedAt: now() })
      .where(and(eq(refreshTokens.id, tokenId), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
      .returning();
    return spent ?? null;
  }

  return { issue, revokeFamily, revokeAllOf, spend };
}
