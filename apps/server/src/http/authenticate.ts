// Who is calling, and may they? `authenticate` turns a bearer access token into request.user (401
// when missing, expired or revoked; modules/auth/access-tokens.ts answers from memory);
// `allow(action, subject)` enforces the contract's permission rules.
import type { FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
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

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  return header.slice(7).trim() || null;
}

// Both run as onRequest hooks, before the body is parsed or validated: a caller who may not use an
// endpoint learns nothing about its fields, and costs us no parsing. Both are callback hooks, not async
// ones: a caller whose token, account and family are in memory (nearly every request) is answered
// without a promise (a few of them per request were a visible part of a cached GET's CPU).
export const authenticate: onRequestHookHandler = function (request, _reply, done) {
  const token = bearerToken(request);
  if (!token) return done(unauthorized(messages.noAccessToken));
  const known = this.accessTokens.userKnown(token);
  if (known !== undefined) return signedIn(request, known, done);
  this.accessTokens.userFor(token).then((user) => signedIn(request, user, done), done);
};

function signedIn(request: FastifyRequest, user: AuthUser | null, done: HookHandlerDoneFunction) {
  if (!user) return done(unauthorized());
  request.user = user;
  done();
}

/** The caller, for handlers behind `authenticate`. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized(messages.noAccessToken);
  return request.user;
}

export function allow(action: Action, subject: Subject): onRequestHookHandler {
  const check: onRequestHookHandler = (request, _reply, done) => {
    const user = request.user;
    if (!user) return done(unauthorized(messages.noAccessToken));
    // A rule that forbids with a reason ("Admins do not enroll in courses") says why.
    if (!user.ability.can(action, subject)) return done(forbidden(user.ability.relevantRuleFor(action, subject)?.reason));
    done();
  };
  permissionChecks.add(check);
  return check;
}

/** Every hook made by `allow`, so the API description can say which endpoints may answer 403. */
export const permissionChecks = new WeakSet<object>();
