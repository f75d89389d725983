// GET /api/ice-servers/: the STUN/TURN servers the meeting client hands to RTCPeerConnection (ICE_SERVERS).
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@mooz/contract/endpoints';
import { route } from '../http/route';

export const iceServerRoutes: FastifyPluginAsync = async (app) => {
  route(app, endpoints.meetings.iceServers, () => ({ data: app.config.iceServers }));
};
