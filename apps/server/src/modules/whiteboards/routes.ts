// HTTP shape of the class whiteboard's saved pages: the list, one page as PNG, the host's save, and a course's boards.
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@mooz/contract/endpoints';
import { currentUser } from '../../http/authenticate';
import { route } from '../../http/route';
import type { WhiteboardImages } from './service';

export const whiteboardRoutes: FastifyPluginAsync<{ images: WhiteboardImages }> = async (app, { images }) => {
  route(app, endpoints.sessions.whiteboardPages, (req) => images.pages(currentUser(req), req.params.roomId));
  route(app, endpoints.sessions.whiteboardImage, (req, reply) => images.image(currentUser(req), req.params.roomId, req.params.page, reply));
  route(app, endpoints.sessions.saveWhiteboardImage, (req) => images.save(currentUser(req), req.params.roomId, req.params.page, req.body.png));
  route(app, endpoints.sessions.courseWhiteboards, (req) => images.ofCourse(currentUser(req), req.params.id));
};
