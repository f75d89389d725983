// HTTP shape of the class polls: their answers as a CSV file (the polls themselves run over the meeting's socket).
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@mooz/contract/endpoints';
import { currentUser } from '../../http/authenticate';
import { route } from '../../http/route';
import type { PollAnswers } from './answers-csv';

export const pollRoutes: FastifyPluginAsync<{ answers: PollAnswers }> = async (app, { answers }) => {
  route(app, endpoints.sessions.pollAnswersCsv, (req, reply) => answers.csv(currentUser(req), req.params.roomId, reply));
};
