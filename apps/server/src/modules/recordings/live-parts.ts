// What live recordings need of the app, given to them by app.ts. The realtime server is made after the
// modules, so it is asked for when needed rather than handed over at the start.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import type { NotificationsDoor } from '../notifications';
import type { Storage } from './storage';

export interface LiveRecordingParts {
  db: Database;
  storage: Storage;
  log: FastifyBaseLogger;
  notifications: NotificationsDoor;
  realtime: () => FastifyInstance['realtime'];
}
