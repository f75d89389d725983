// HTTP shape of search and bookmarks: each declared endpoint answered by its service.
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@mooz/contract/endpoints';
import { currentUser } from '../../http/authenticate';
import { route } from '../../http/route';
import type { BookmarksService } from './bookmarks';
import type { SearchService } from './search';

export const navigationRoutes: FastifyPluginAsync<{ search: SearchService; bookmarks: BookmarksService }> = async (app, { search, bookmarks }) => {
  route(app, endpoints.search.query, (req) => search.search(currentUser(req), req.query));
  route(app, endpoints.bookmarks.data, (req) => bookmarks.data(currentUser(req)));
  route(app, endpoints.bookmarks.update, (req) => bookmarks.toggle(currentUser(req), req.body.id));
  route(app, endpoints.bookmarks.order, (req) => bookmarks.reorder(currentUser(req), req.body.ids));
};
