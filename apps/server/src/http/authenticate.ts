// Who is calling, and may they? `authenticate` turns a bearer access token into request.user (401
// when missing, expired or revoked; modules/auth/access-tokens.ts answers from memory);
// `allow(action, subject)` enforces the contract's permission rules.
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { and, eq, isNotNull } from 'drizzle-orm';
import { messages } from '@mooz/contract/messages';
import { buildAbility, rulesFor, type Action, type AppAbility, type Subject, type UserType } from '@mooz/contract/permissions';
import { refreshTokens, users } from '../db/schema/index';
import type { Database } from '../db/client';
import { verifyAccessToken } from '../infrastructure/tokens';
import { forbidden, unauthorized } from './errors';

export interface AuthUser {
  id: number;
  userType: UserType;
  familyId: string;
  ability: AppAbility;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

/**
 * The signed-in user behind an access token, or null when it is invalid, expired or revoked, asked of
 * the database. The signalling handshake uses it; HTTP requests ask app.accessTokens, which remembers.
 */
export async function userForAccessToken(db: Database, secret: string, token: string): Promise<AuthUser | null> {
  const claims = await verifyAccessToken(secret, token);
  if (!claims) return null;
  const [row] = await db
    .select({ id: users.id, userType: users.userType, isActive: users.isActive, deactivatedAt: users.deactivatedAt })
    .from(users)
    .where(eq(users.id, claims.userId));
  if (!row?.isActive || row.deactivatedAt) return null;
  // Logout and password changes revoke the family; its access tokens die with it.
  const revoked = await db
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.familyId, claims.familyId), isNotNull(refreshTokens.revokedAt)))
    .limit(1);
  if (revoked.length) return null;
  return { id: row.id, userType: row.userType, familyId: claims.familyId, ability: buildAbility(rulesFor(row.userType, row.id)) };
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  return header.slice(7).trim() || null;
}

// Both run as onRequest hooks, before the body is parsed or validated: a caller who may not use an
// endpoint learns nothing about its fields, and costs us no parsing.
export const authenticate: onRequestAsyncHookHandler = async function (request: FastifyRequest, _reply: FastifyReply) {
  const token = bearerToken(request);
  if (!token) throw unauthorized(messages.noAccessToken);
  const user = await this.accessTokens.userFor(token);
  if (!user) throw unauthorized();
  request.user = user;
};

/** The caller, for handlers behind `authenticate`. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized(messages.noAccessToken);
  return request.user;
}

export function allow(action: Action, subject: Subject): onRequestAsyncHookHandler {
  const check: onRequestAsyncHookHandler = async (request) => {
    const user = currentUser(request);
    // A rule that forbids with a reason ("Admins do not enroll in courses") says why.
    if (!user.ability.can(action, subject)) throw forbidden(user.ability.relevantRuleFor(action, subject)?.reason);
  };
  permissionChecks.add(check);
  return check;
}

/** Every hook made by `allow`, so the API description can say which endpoints may answer 403. */
export const permissionChecks = new WeakSet<object>();
