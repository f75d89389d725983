// HTTP shape of calendars: the caller's feed address (see, make or rotate, turn off), the public feed
// by its token, and one session's .ics. The two .ics answers are text/calendar, not JSON envelopes.
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { endpoints } from '@mooz/contract/endpoints';
import { currentUser } from '../../http/authenticate';
import { route } from '../../http/route';
import { attachment } from '../../infrastructure/csv';
import type { CalendarService } from './service';

const calendarType = 'text/calendar; charset=utf-8';

export const calendarRoutes: FastifyPluginAsync<{ calendar: CalendarService }> = async (app, { calendar }) => {
  const api = endpoints.calendar;
  route(app, api.feed, (req) => calendar.feed(currentUser(req), req));
  route(app, api.createFeed, (req) => calendar.create(currentUser(req), req));
  route(app, api.revokeFeed, (req) => calendar.revoke(currentUser(req)));
  route(app, api.ics, async (req, reply): Promise<FastifyReply> => {
    const body = await calendar.feedIcs(req.params.token);
    // The token is the whole authorisation: no shared cache keeps the answer, no referrer carries it on.
    return reply
      .status(200)
      .header('content-type', calendarType)
      .header('content-disposition', 'inline; filename="mooz.ics"')
      .header('cache-control', 'private, no-store')
      .header('referrer-policy', 'no-referrer')
      .send(body);
  });
  route(app, endpoints.sessions.ics, async (req, reply): Promise<FastifyReply> => {
    const { body, fileName } = await calendar.sessionIcs(currentUser(req), req.params.id);
    return reply
      .status(200)
      .header('content-type', calendarType)
      .header('content-disposition', attachment(fileName))
      .header('cache-control', 'no-store')
      .send(body);
  });
};
