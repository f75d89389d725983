// Private messages: a chat to one person, through the server in mesh and SFU rooms alike, so that the
// host's rule holds (students may write privately to and from a host only, when locked) and the message
// goes to the recipient's own connection and nobody else's.
import { messages } from '@mooz/contract/messages';
import { privateMessagePayload } from '@mooz/contract/classroom-tools';
import type { RoomAdmission } from '../admission';
import type { RoomControlsStore } from '../room-controls-store';
import type { RoomStore } from '../room-store';
import { peerChannel, type MeetingSocket, type RealtimeServer } from '../sockets';
import { placeIn } from './place';

type Handle = <P>(event: 'request:private_message', run: (payload: P, reply: (res: unknown) => void) => Promise<void>) => void;

export function privateMessageService(io: RealtimeServer, store: RoomStore, controls: RoomControlsStore, admission: RoomAdmission) {
  return {
    serve(socket: MeetingSocket, handle: Handle) {
      const { peerId } = socket.data;
      handle<unknown>('request:private_message', async (payload, reply) => {
        const parsed = privateMessagePayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const { roomId, to, chat } = parsed.data;
        if (to === peerId) return reply({ error: messages.notAllowed });
        const place = await placeIn(socket, store, admission, roomId);
        const [recipient] = await store.members(roomId, [to]);
        if (!place || !recipient) return reply({ error: messages.notAllowed });
        if (!place.host && (await controls.locked(roomId, 'private_chat'))) {
          const hosts = await controls.hostSessions(roomId);
          if (!hosts.includes(to)) return reply({ error: messages.privateChatLocked });
        }
        io.to(peerChannel(recipient.userId, recipient.peerId)).emit('action:private_message', {
          roomId,
          from: peerId,
          fromName: place.self.userName,
          chat,
        });
        reply({ delivered: true });
      });
    },
  };
}
