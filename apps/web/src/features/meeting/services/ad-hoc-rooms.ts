// Creating an ad hoc room from the lobby. The server creates rooms only over a socket, so this opens one
// of its own for the request and closes it: it never touches a meeting this tab is in.
import { io } from 'socket.io-client';
import { messages } from '@mooz/contract/messages';
import { socketPath, socketTransports } from '@mooz/contract/config';
import type { Room } from '@mooz/contract/realtime';
import { refreshAccessToken } from '../../../lib/api';
import { randomId } from '../../../lib/random-id';
import { connectErrorMessage, handshake, type MeetingSocket } from './handshake';

function createRoomOnce(room: { name: string; capacity: number }): Promise<Room> {
  return new Promise((resolve, reject) => {
    const creator: MeetingSocket = io({
      path: socketPath,
      transports: [...socketTransports],
      reconnection: false,
      forceNew: true,
      // Its own peer id, so it never replaces this tab's meeting connection.
      auth: handshake(randomId(), null),
    });
    creator.once('connect_error', (error) => {
      creator.disconnect();
      reject(new Error(connectErrorMessage(error)));
    });
    creator.once('connect', () => {
      creator.emit('request:create_room', { room }, (res) => {
        creator.disconnect();
        if ('error' in res) reject(new Error(res.error));
        else resolve(res.room);
      });
    });
  });
}

/** Creates an ad hoc room (it is not joined: the creator joins like everyone else). */
export async function createRoom(room: { name: string; capacity: number }): Promise<Room> {
  try {
    return await createRoomOnce(room);
  } catch (error) {
    // An expired access token gets one refresh before we give up.
    if ((error as Error).message !== messages.unauthorized) throw error;
    await refreshAccessToken();
    return createRoomOnce(room);
  }
}
