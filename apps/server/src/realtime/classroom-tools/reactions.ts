// Reactions: a short set of emoji that float over the sender's tile for everyone else. Rate-limited per
// connection (a burst, then one a second), so nobody can flood a class with them.
import { messages } from '@mooz/contract/messages';
import { classroomToolLimits, reactionPayload } from '@mooz/contract/classroom-tools';
import type { RoomAdmission } from '../admission';
import { tokenBucket } from '../event-limits';
import type { RoomStore } from '../room-store';
import { roomChannel, type MeetingSocket } from '../sockets';
import { placeIn } from './place';

type Handle = <P>(event: 'request:reaction', run: (payload: P, reply: (res: unknown) => void) => Promise<void>) => void;

export function reactionService(store: RoomStore, admission: RoomAdmission) {
  return {
    serve(socket: MeetingSocket, handle: Handle) {
      const allow = tokenBucket(classroomToolLimits.reactionBurst, 1000 / classroomToolLimits.reactionEveryMs);
      handle<unknown>('request:reaction', async (payload, reply) => {
        const parsed = reactionPayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const { roomId, reaction } = parsed.data;
        if (!(await placeIn(socket, store, admission, roomId))) return reply({ error: messages.notAllowed });
        if (!allow()) return reply({ error: messages.rateLimited });
        socket.to(roomChannel(roomId)).emit('action:reaction', { roomId, from: socket.data.peerId, reaction });
        reply({ done: true });
      });
    },
  };
}
