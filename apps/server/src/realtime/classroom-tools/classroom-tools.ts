// The classroom tools beside the whiteboard, served on each meeting connection: reactions, private
// messages and polls.
import type { FastifyInstance } from 'fastify';
import type { RoomAdmission } from '../admission';
import type { RoomControlsStore } from '../room-controls-store';
import type { RoomStore } from '../room-store';
import type { MeetingSocket, RealtimeServer } from '../sockets';
import { pollService } from './polls';
import { privateMessageService } from './private-messages';
import { reactionService } from './reactions';

type Handle = (event: never, run: never) => void;

export function classroomTools(app: FastifyInstance, io: RealtimeServer, store: RoomStore, controls: RoomControlsStore, admission: RoomAdmission) {
  const reactions = reactionService(store, admission);
  const privateMessages = privateMessageService(io, store, controls, admission);
  const polls = pollService(app, io, store, controls, admission);
  return {
    polls: polls.polls,
    serve(socket: MeetingSocket, handle: Handle) {
      reactions.serve(socket, handle as never);
      privateMessages.serve(socket, handle as never);
      polls.serve(socket, handle as never);
    },
  };
}

export type ClassroomTools = ReturnType<typeof classroomTools>;
