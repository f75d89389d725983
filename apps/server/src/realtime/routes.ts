// GET /api/ice-servers/: the STUN/TURN servers the meeting client hands to RTCPeerConnection (ICE_SERVERS).
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@mooz/contract/envelope';
import { iceServer } from '@mooz/contract/realtime';
import { authenticate } from '../http/authenticate';

export const iceServerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/ice-servers/',
    {
      onRequest: [authenticate],
      schema: {
        tags: ['meetings'],
        summary: 'STUN and TURN servers for meeting peers',
        security: [{ bearer: [] }],
        response: { 200: dataEnvelope(z.array(iceServer)) },
      },
    },
    async () => ({ data: app.config.iceServers }),
  );
};
