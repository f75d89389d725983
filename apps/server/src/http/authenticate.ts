// Who is calling, and may they? `authenticate` turns a bearer access token into request.user (401
// when missing, expired or revoked; modules/auth/access-tokens.ts answers from memory);
// `allow(action, subject)` enforces the contract's permission rules.
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { messages } from '@mooz/contract/messages';
import type { Action, AppAbility, Subject, UserType } from '@mooz/contract/permissions';
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
