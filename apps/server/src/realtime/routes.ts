// GET /api/ice-servers/: the STUN/TURN servers the meeting client hands to RTCPeerConnection (ICE_SERVERS,
// then TURN_URLS with a credential of the caller's, turn-credentials.ts). The answer is the caller's
// own and expires: no cache keeps it (no-store), and it is never logged.
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@mooz/contract/endpoints';
import { currentUser } from '../http/authenticate';
import { route } from '../http/route';
import { iceServersFor } from './turn-credentials';

export const iceServerRoutes: FastifyPluginAsync = async (app) => {
  route(app, endpoints.meetings.iceServers, (request, reply) => {
    reply.header('cache-control', 'private, no-store');
    return iceServersFor(app.config, currentUser(request).id);
  });
  route(app, endpoints.meetings.capacity, () => ({
    data: { max_capacity: app.realtime.sfu.capacityLimit(), sfu: app.realtime.sfu.configured, mesh_max_people: app.config.janus.meshMaxPeople },
  }));
};
