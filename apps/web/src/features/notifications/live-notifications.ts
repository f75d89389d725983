// The bell's own socket: a connection to the signalling server (the contract's socket, its handshake)
// that joins no room and only listens for `action:notification`, pushed by the server to every socket
// of the person. Loaded once the first screen is drawn (lib/first-screen.ts), so the first visit does
// not wait for socket.io's client; what came before it connected is read from the list then.
import { io, type Socket } from 'socket.io-client';
import type { NotificationEvent } from '@mooz/contract/notifications';
import { socketPath, socketTransports } from '@mooz/contract/config';
import type { ClientToServerEvents, ServerToClientEvents } from '@mooz/contract/realtime';
import { getAccessToken, refreshAccessToken } from '../../lib/api';
import { randomId } from '../../lib/random-id';

/** Listens until the returned function is called. */
export function listenForNotifications(onNotification: (event: NotificationEvent) => void, onConnected: () => void): () => void {
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
  // Refused by the server (an access token that expired while the tab was idle), socket.io does not
  // try again by itself: a fresh token first, then again; signed out (no refresh), it stops.
  // A few times, further apart each time: a refusal a new token does not cure is not asked again and again.
  let retry: ReturnType<typeof setTimeout> | undefined;
  let refusals = 0;
  // Connected, at first or back after a drop: what came meanwhile is read from the list.
  socket.on('connect', () => {
    refusals = 0;
    onConnected();
  });
  socket.on('connect_error', () => {
    if (socket.active || refusals >= 3) return;
    refusals += 1;
    retry = setTimeout(() => {
      refreshAccessToken().then(
        () => socket.connect(),
        () => {},
      );
    }, 5_000 * 2 ** refusals);
  });
  return () => {
    clearTimeout(retry);
    socket.off('action:notification', onNotification);
    socket.disconnect();
  };
}
