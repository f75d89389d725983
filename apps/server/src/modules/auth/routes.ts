// HTTP shape of /api/auth/* and /api/admin/users/: parse, call the service, answer in the envelope.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changePasswordBody,
  createUserBody,
  forgotPasswordBody,
  loginBody,
  loginData,
  logoutBody,
  profilePatchBody,
  refreshBody,
  registerBody,
  sendOtpBody,
  tokenPair,
  trialStatus,
  user,
  verifyOtpBody,
} from '@mooz/contract/auth';
import { dataEnvelope, errorEnvelope } from '@mooz/contract/envelope';
import { languages } from '@mooz/contract/limits';
import { allow, authenticate, currentUser } from '../../http/authenticate';
import type { AuthService } from './service';

const done = dataEnvelope(z.null());
// The statuses these routes' own rules add; the ones every route of its shape can answer are declared centrally.
const limited = { 429: errorEnvelope };
const emailTaken = { 409: errorEnvelope };
const refused = { 401: errorEnvelope };
const secured = [{ bearer: [] }];

function preferredLanguage(header: string | undefined) {
  const wanted = (header ?? '').split(',').map((part) => part.trim().slice(0, 2).toLowerCase());
  return wanted.find((code): code is (typeof languages)[number] => (languages as readonly string[]).includes(code));
}

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  const tags = ['auth'];

  app.post(
    '/auth/register/',
    { schema: { tags, summary: 'Sign up a student; mails a 6-digit code', body: registerBody, response: { 201: dataEnvelope(user), ...emailTaken, ...limited } } },
    async (req, reply) => reply.status(201).send(await auth.register(req.body, req.ip, preferredLanguage(req.headers['accept-language']))),
  );

  app.post(
    '/auth/send-otp/',
    { schema: { tags, summary: 'Mail a new code (verify or reset)', body: sendOtpBody, response: { 200: done, ...limited } } },
    async (req) => auth.sendOtp(req.body.email, req.body.purpose, req.ip),
  );

  app.post(
    '/auth/verify-otp/',
    { schema: { tags, summary: 'Check a code; a verify code activates the account', body: verifyOtpBody, response: { 200: done, ...limited } } },
    async (req) => auth.verifyOtp(req.body.email, req.body.otp, req.body.purpose, req.ip),
  );

  app.post(
    '/auth/login/',
    { schema: { tags, summary: 'Log in', body: loginBody, response: { 200: dataEnvelope(loginData), ...refused, 403: errorEnvelope, ...limited } } },
    async (req) => auth.login(req.body.email, req.body.password, req.ip),
  );

  app.post(
    '/auth/token/refresh/',
    { schema: { tags, summary: 'Rotate the refresh token', body: refreshBody, response: { 200: dataEnvelope(tokenPair), ...refused } } },
    async (req) => auth.refresh(req.body.refresh),
  );

  app.post(
    '/auth/logout/',
    { schema: { tags, summary: 'Revoke the refresh token', body: logoutBody, response: { 200: done } } },
    async (req) => auth.logout(req.body.refresh),
  );

  app.post(
    '/auth/forgot-password/',
    {
      schema: {
        tags,
        summary: 'Send {email} for a reset code, then {email, otp, new_password}',
        body: forgotPasswordBody,
        response: { 200: done, ...limited },
      },
    },
    async (req) => auth.forgotPassword(req.body, req.ip),
  );

  app.post(
    '/auth/change-password/',
    {
      onRequest: [authenticate, allow('update', 'Profile')],
      schema: { tags, security: secured, body: changePasswordBody, response: { 200: done } },
    },
    async (req) => {
      const me = currentUser(req);
      return auth.changePassword(me.id, me.familyId, req.body.old_password, req.body.new_password);
    },
  );

  app.get(
    '/auth/profile/',
    { onRequest: [authenticate, allow('read', 'Profile')], schema: { tags, security: secured, response: { 200: dataEnvelope(user) } } },
    async (req) => auth.profile(currentUser(req).id),
  );

  app.patch(
    '/auth/profile/',
    {
      onRequest: [authenticate, allow('update', 'Profile')],
      schema: { tags, security: secured, body: profilePatchBody, response: { 200: dataEnvelope(user) } },
    },
    async (req) => auth.updateProfile(currentUser(req).id, req.body),
  );

  app.get(
    '/auth/trial-status/',
    { onRequest: [authenticate], schema: { tags, security: secured, response: { 200: dataEnvelope(trialStatus) } } },
    async (req) => auth.trialStatus(currentUser(req).id),
  );

  app.post(
    '/admin/users/',
    {
      onRequest: [authenticate, allow('create', 'User')],
      schema: { tags: ['admin'], summary: 'Create a teacher, admin or student', security: secured, body: createUserBody, response: { 201: dataEnvelope(user), ...emailTaken } },
    },
    async (req, reply) => reply.status(201).send(await auth.createUser(req.body)),
  );
};
