// The floor bench/signalling.mjs measures against: a bare socket.io relay speaking the same events as
// Mooz's signalling (create, join, relay to a peer's sessionId, leave, with acknowledgements), with no
// authentication, no validation, no limits and no room store. Built from the project's own socket.io,
// websocket transport only, in its own process like the real server. PORT names the port.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Server } from 'socket.io';

const http = createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'text/plain' });
  response.end('ok');
});
const io = new Server(http, { path: '/socket.io/', transports: ['websocket'], serveClient: false });
const rooms = new Map();

io.on('connection', (socket) => {
  const sessionId = socket.handshake.auth?.sessionId ?? socket.id;
  // One socket.io room per peer, as the real server does, so a relay is io.to(peer).emit.
  socket.join(`peer:${sessionId}`);
  socket.on('request:create_room', (payload, ack) => {
    const room = { id: randomUUID(), name: payload?.room?.name ?? 'Meeting', capacity: payload?.room?.capacity ?? 10, created_by: null };
    rooms.set(room.id, room);
    ack?.({ room });
  });
  socket.on('request:join_room', ({ roomId, userName }, ack) => {
    const room = rooms.get(roomId) ?? { id: roomId, name: 'Meeting', capacity: 10, created_by: null };
    socket.join(`room:${roomId}`);
    ack?.({ room });
    socket.emit('action:room_connection_established', { room });
    socket.to(`room:${roomId}`).emit('action:establish_peer_connection', { userId: sessionId, userName });
  });
  socket.on('request:send_mesage', ({ to, data }, ack) => {
    io.to(`peer:${to}`).emit('action:message_received', { from: sessionId, data });
    ack?.({ delivered: true });
  });
  socket.on('request:leave_room', ({ roomId }, ack) => {
    socket.leave(`room:${roomId}`);
    socket.to(`room:${roomId}`).emit('action:terminate_peer_connection', { userId: sessionId });
    ack?.({ left: true });
  });
});

http.listen(Number(process.env.PORT), '127.0.0.1');
