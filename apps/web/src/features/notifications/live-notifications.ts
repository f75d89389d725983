// The bell's own socket: a connection to the signalling server (the contract's socket, its handshake)
// that joins no room and only listens for `action:notification`, pushed by the server to every socket
// of the person. Loaded after the first page has drawn (notifications-bell.tsx), so the first visit
// does not wait for socket.io's client.
import { io, type Socket } from 'socket.io-client';
import type { NotificationEvent } from '@mooz/contract/notifications';
import { socketPath, socketTransports, type ClientToServerEvents, type ServerToClientEvents } from '@mooz/contract/realtime';
import { getAccessToken } from '../../lib/api';
import { randomId } from '../../lib/random-id';

/** Listens until the returned function is called. */
export function listenForNotifications(onNotification: (event: NotificationEvent) => void, onReconnect: () => void): () => void {
  // A peer id of its own: a meeting's socket in this tab has another, so neither replaces the other.
  const peerId = randomId();
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io({
    path: socketPath,
    transports: [...socketTransports],
    reconnectionDelayMax: 10_000,
    // A function, so a reconnection carries the access token of the moment.
    auth: (send) => send({ sessionId: peerId, currentRoomId: null, token: getAccessToken() ?? '' }),
  });
  socket.on('action:notification', onNotification);
  // Back after a drop: what came meanwhile is read from the list.
  socket.io.on('reconnect', onReconnect);
  return () => {
    socket.off('action:notification', onNotification);
    socket.disconnect();
  };
}
