// HTTP shape of /api/auth/*: each declared endpoint answered by the service.
import { endpoints } from '@mooz/contract/endpoints';
import { languages } from '@mooz/contract/limits';
import type { FastifyPluginAsync } from 'fastify';
import { currentUser } from '../../http/authenticate';
import { route } from '../../http/route';
import type { AuthService } from './service';

function preferredLanguage(header: string | undefined) {
  const wanted = (header ?? '').split(',').map((part) => part.trim().slice(0, 2).toLowerCase());
  return wanted.find((code): code is (typeof languages)[number] => (languages as readonly string[]).includes(code));
}

export const authRoutes: FastifyPluginAsync<{ auth: AuthService }> = async (app, { auth }) => {
  const { auth: api } = endpoints;

  route(app, api.register, (req) => auth.register(req.body, req.ip, preferredLanguage(req.headers['accept-language'])));
  route(app, api.sendOtp, (req) => auth.sendOtp(req.body.email, req.body.purpose, req.ip));
  route(app, api.verifyOtp, (req) => auth.verifyOtp(req.body.email, req.body.otp, req.body.purpose, req.ip, req.headers['user-agent']));
  route(app, api.login, (req) => auth.login(req.body.email, req.body.password, req.ip, req.headers['user-agent']));
  route(app, api.refresh, (req) => auth.refresh(req.body.refresh));
  route(app, api.logout, (req) => auth.logout(req.body.refresh));
  route(app, api.forgotPassword, (req) => auth.forgotPassword(req.body, req.ip));
  route(app, api.changePassword, (req) => {
    const me = currentUser(req);
    return auth.changePassword(me.id, me.familyId, req.body.old_password, req.body.new_password);
  });
  route(app, api.changeEmail, (req) => auth.changeEmail(currentUser(req).id, req.body, req.ip));
  route(app, api.confirmEmailChange, (req) => auth.confirmEmailChange(currentUser(req).id, req.body, req.ip));
  route(app, api.profile, (req) => auth.profile(currentUser(req).id));
  route(app, api.updateProfile, (req) => auth.updateProfile(currentUser(req).id, req.body));
  route(app, api.trialStatus, (req) => auth.trialStatus(currentUser(req).id));
};
