// The signalling socket of one meeting: the handshake, joining the room (again after a reconnect, or
// when the server asks), carrying descriptions and candidates between this tab's mesh and the others,
// and what the server says about our place (a refusal, an outage, our place taken elsewhere). It exists
// apart from the mesh so the mesh knows no socket, and apart from the meeting's lifecycle so that one
// reads as a sequence; how to give up is handed in as `fail`.
import { io } from 'socket.io-client';
import i18n from 'i18next';
import { messages } from '@mooz/contract/messages';
import { socketPath, socketTransports } from '@mooz/contract/config';
import type { Room, SdpSignal, SignalData, StreamMetaData } from '@mooz/contract/realtime';
import { refreshAccessToken } from '../../../lib/api';
import { meetingPeerId } from '../identity';
import { useMeetingStore } from '../meeting-store';
import { connectErrorMessage, handshake, type MeetingSocket } from './handshake';
import { joinMark } from './join-marks';
import { meetingToast } from './meeting-toasts';
import { attachRoomControls, detachRoomControls, waitInLobby } from './room-controls';
import type { Mesh } from './mesh';
import { SfuLink } from './sfu-link';
import { attachWhiteboard, detachWhiteboard } from '../whiteboard/whiteboard-link';
import { attachClassroomTools, detachClassroomTools } from '../classroom-tools/tools-link';
import { attachBreakouts, detachBreakouts } from '../breakouts/breakouts-link';
import { changedLayers, layersFor } from './sfu-layers';
import { decodeChat, encodeChat } from '../chat';
import { receiveChat, type ChatLink } from './chat-channel';

const store = useMeetingStore;
/** How long layer choices wait for the stage to settle before they go to the SFU. */
const LAYERS_SETTLE_MS = 150;
const t = (key: string) => i18n.t(key);

export interface Signalling {
  /** Hands `data` to peer `to` through the server. */
  send(to: string, data: SignalData): void;
  /** In an SFU room, where a chat goes (to everyone, through the server); null in a mesh. */
  roomChat(): ChatLink | null;
  /** Tells the server (and so the others) that this tab leaves the room, if the socket is up. */
  leave(): void;
  /** Drops the socket without telling anyone; nothing it was doing reaches the store afterwards. */
  close(): void;
}

/** A meeting socket: it connects at once, as this tab's peer. */
function connectSocket(): MeetingSocket {
  return io({
    path: socketPath,
    transports: [...socketTransports],
    // The room keeps our place for limits.reconnectGraceMs after a drop: try again often enough to be
    // back well within it once the network is (socket.io's default waits up to 5 s between tries).
    reconnectionDelayMax: 2_000,
    // A function, so every reconnection carries the current token and the room we are in. Before a
    // meeting has begun (warmSignalling) the store has no peer id yet: it is this tab's, as begin() sets.
    auth: (send) => {
      const { peerId, roomId, phase } = store.getState();
      send(handshake(peerId || meetingPeerId(), phase === 'joined' || phase === 'reconnecting' ? roomId : null));
    },
  });
}

/**
 * A socket connected ahead of a join (the lobby, once its form holds a room to join), so the join goes
 * out at the click instead of after the socket's round trips, which the room page's first render would
 * hold up. The next openSignalling takes it; unused, it is closed after WARM_KEPT_MS or when the lobby goes.
 */
let warm: { socket: MeetingSocket; expiry: ReturnType<typeof setTimeout> } | null = null;
const WARM_KEPT_MS = 60_000;

/** Connects a socket for the join about to come (kept WARM_KEPT_MS from the last call). */
export function warmSignalling() {
  if (warm) {
    clearTimeout(warm.expiry);
    warm.expiry = setTimeout(dropWarmSignalling, WARM_KEPT_MS);
    return;
  }
  const socket = connectSocket();
  // Refused (an expired token, say): nothing is kept, and the join's own socket deals with it.
  socket.on('connect_error', () => {
    if (!socket.active && warm?.socket === socket) dropWarmSignalling();
  });
  warm = { socket, expiry: setTimeout(dropWarmSignalling, WARM_KEPT_MS) };
}

/** Closes the socket warmSignalling connected, if no join took it. */
export function dropWarmSignalling() {
  if (!warm) return;
  clearTimeout(warm.expiry);
  warm.socket.removeAllListeners();
  warm.socket.disconnect();
  warm = null;
}

/** The warm socket, if it is connected or still connecting; it is no longer kept. */
function takeWarm(): MeetingSocket | null {
  const taken = warm;
  if (!taken) return null;
  clearTimeout(taken.expiry);
  warm = null;
  taken.socket.removeAllListeners();
  if (taken.socket.connected || taken.socket.active) return taken.socket;
  taken.socket.disconnect();
  return null;
}

/**
 * Connects the meeting's socket (or takes the one warmSignalling connected) and joins the store's room
 * once `ready` settles true (the mesh can link: the others link to us as soon as we are in). `fail`
 * ends the meeting with a reason: the join was refused, the server refused the socket, or our place was taken.
 */
export function openSignalling(
  mesh: Mesh,
  fail: (message: string) => void,
  ready: Promise<boolean> | true = true,
  rtcConfig: () => RTCConfiguration = () => ({}),
): Signalling {
  let closed = false;
  // Ready at once (the ICE servers were known): a warm socket joins now, before this task ends.
  let isReady = ready === true;
  /** Connected before we were ready: the join waits for `ready`. */
  let joinWaiting = false;
  let refreshedOnce = false;
  let reportedOutage = false;
  joinMark('socket');
  const warmed = takeWarm();
  const socket: MeetingSocket = warmed ?? connectSocket();

  function join() {
    const { roomId, userName, phase } = store.getState();
    if (closed || !roomId) return;
    socket.emit('request:join_room', { roomId, userName }, (res) => {
      if (closed) return;
      if ('error' in res) return fail(res.error);
      // Waiting in the lobby until a host decides (room-controls.ts).
      if ('lobby' in res) return waitInLobby(res.lobby);
      joinMark('joined');
      // A recording that ended while we were away is forgotten: the server tells joiners of one under way right after this answer.
      store.setState({ room: res.room, phase: 'joined', failure: null, recording: null });
      // Back after a blip: the links recover now (signals sent meanwhile may be lost). Had the place not
      // been kept, room_connection_established follows and replaces them anyway.
      if (phase === 'reconnecting') mesh.resume();
    });
  }

  function connected() {
    joinMark('connected');
    reportedOutage = false;
    if (isReady) join();
    else joinWaiting = true;
  }
  socket.on('connect', connected);
  if (ready !== true) {
    void ready.then((ok) => {
      if (!ok || closed) return;
      isReady = true;
      if (joinWaiting && socket.connected) join();
      joinWaiting = false;
    });
  }
  socket.on('connect_error', (error) => {
    if (closed) return;
    const message = connectErrorMessage(error);
    if (socket.active) {
      // A transport failure: socket.io keeps retrying. In a meeting under way the Reconnecting badge says
      // so (a blip is no error to toast); before the first join, say so once.
      const { phase } = store.getState();
      if (phase === 'joined') store.setState({ phase: 'reconnecting' });
      else if (phase !== 'reconnecting' && !reportedOutage) meetingToast.error(message);
      reportedOutage = true;
      return;
    }
    // Refused by the server. An expired access token gets one refresh before we give up.
    if (message === messages.unauthorized && !refreshedOnce) {
      refreshedOnce = true;
      refreshAccessToken().then(
        () => !closed && socket.connect(),
        () => !closed && fail(message),
      );
      return;
    }
    meetingToast.error(message);
    fail(message);
  });
  socket.on('disconnect', (reason) => {
    if (closed || reason === 'io client disconnect') return;
    if (reason === 'io server disconnect') {
      // The same peer id connected elsewhere (a duplicated tab): that one holds the place now.
      fail(t('meeting.replacedElsewhere'));
      return;
    }
    if (store.getState().phase === 'joined') store.setState({ phase: 'reconnecting' });
  });
  socket.on('error', ({ message }) => console.warn('Signalling server:', message));
  // Hands, the host's controls and the lobby (room-controls.ts).
  attachRoomControls(socket, { mesh, rejoin: join, fail });
  attachWhiteboard(socket);
  attachClassroomTools(socket);
  attachBreakouts(socket);

  // Large classes: once the room outgrows the mesh the server moves it to the SFU, and moves it again
  // (a new epoch) if its SFU instance fails; we publish on a fresh link each time, and again when the
  // server process we are back on after a blip holds no SFU session of ours (`republish`). Peers keep their
  // tiles: the mesh swaps each one's streams for the SFU's as they arrive (mesh.ts, sfuStream).
  let sfu: SfuLink | null = null;
  socket.on('action:room_topology', ({ roomId, mode, epoch, republish }) => {
    if (closed || roomId !== store.getState().roomId || mode !== 'sfu' || (sfu?.epoch === epoch && !republish)) return;
    sfu?.close();
    const link = new SfuLink(socket, roomId, epoch, {
      rtcConfig,
      stream: (peerId, source, stream) => {
        if (sfu === link) mesh.sfuStream(peerId, source, stream);
      },
      status: (state) => {
        if (sfu === link && state === 'failed') mesh.sfuFailed();
      },
    });
    sfu = link;
    mesh.useSfu(link);
    const { localStream, screenStream } = store.getState();
    link.start(localStream, screenStream);
    // Each tile gets the layer it needs, asked again whenever the stage changes (sfu-layers.ts): a
    // moment after, so a newcomer's place on the stage (set as the grid renders) is known first.
    const asked = new Map();
    let soon: ReturnType<typeof setTimeout> | undefined;
    const chooseLayers = () => {
      if (sfu !== link) return;
      const { peers, screenStream, onStage, speakerId, pinnedId } = store.getState();
      const view = { ownScreen: !!screenStream, onStage, speaker: speakerId, pinned: pinnedId };
      link.chooseLayers(changedLayers(layersFor(Object.values(peers), view), asked));
    };
    stopWatchingLayers?.();
    const unsubscribe = store.subscribe((state, before) => {
      const changed = ['peers', 'screenStream', 'onStage', 'speakerId', 'pinnedId'] as const;
      if (!changed.some((key) => state[key] !== before[key])) return;
      clearTimeout(soon);
      soon = setTimeout(chooseLayers, LAYERS_SETTLE_MS);
    });
    stopWatchingLayers = () => {
      clearTimeout(soon);
      unsubscribe();
    };
  });
  let stopWatchingLayers: (() => void) | undefined;
  socket.on('action:sfu_offer', ({ roomId, epoch, jsep, streams }) => {
    if (closed || sfu?.roomId !== roomId || sfu.epoch !== epoch) return;
    sfu.receive(jsep, streams).catch((error: unknown) => console.warn('SFU offer:', error));
  });
  socket.on('action:sfu_media', ({ roomId, peerId, connected }) => {
    if (!closed && sfu?.roomId === roomId) mesh.sfuMedia(peerId, connected);
  });
  socket.on('action:room_chat', ({ roomId, from, chat }) => {
    if (!closed && roomId === store.getState().roomId && from !== store.getState().peerId) receiveChat(from, encodeChat(chat));
  });
  const roomChatLink: ChatLink = {
    send(wire) {
      const { roomId } = store.getState();
      const chat = decodeChat(wire);
      if (closed || !roomId || !chat || !socket.connected) return false;
      socket.emit('request:room_chat', { roomId, chat });
      return true;
    },
  };

  socket.on('action:room_connection_established', ({ room }: { room: Room }) => {
    // A fresh membership (our place was not kept): links from before belong to the old one, and so
    // does our SFU session; the server tells us the room's topology again right after.
    sfu?.close();
    sfu = null;
    mesh.removeAll();
    store.setState({ room });
  });
  // The server introduces a newcomer to those already in the room, who offer first.
  socket.on('action:establish_peer_connection', ({ userId: peerId, userName }) => {
    if (peerId === store.getState().peerId) return;
    // On the SFU a newcomer needs no link of ours, only our name (the same introduction as the mesh's).
    if (sfu) {
      mesh.sfuPeer(peerId, userName);
      send(peerId, { connection: true, userName: store.getState().userName });
      return;
    }
    if (!mesh.replaceable(peerId)) return;
    mesh.link(peerId, userName, true);
    send(peerId, { connection: true, userName: store.getState().userName });
  });
  socket.on('action:message_received', ({ from, data }) => {
    if (from === store.getState().peerId) return;
    if ('connection' in data && data.connection === true) {
      if (sfu) return mesh.sfuPeer(from, typeof data.userName === 'string' ? data.userName : '');
      if (!mesh.replaceable(from)) return;
      mesh.link(from, typeof data.userName === 'string' ? data.userName : '', false);
      return;
    }
    if ('sdpSignal' in data && data.sdpSignal && !sfu) {
      mesh.receive(from, data.sdpSignal as SdpSignal, data.metaData as Partial<StreamMetaData> | undefined);
    }
  });
  // The server could not give our place back after an outage of its shared state: join again, by
  // ourselves; the others were told we left, so the links are made anew and the call goes on.
  socket.on('action:rejoin_required', ({ roomId }) => {
    if (closed || roomId !== store.getState().roomId) return;
    join();
  });
  // This account joined the room from another tab or device, which has our place now.
  socket.on('action:replaced_elsewhere', ({ roomId }) => {
    if (closed || roomId !== store.getState().roomId) return;
    fail(t('meeting.replacedByAccount'));
  });
  socket.on('action:terminate_peer_connection', ({ userId: peerId }) => mesh.peerLeft(peerId));
  // Who records the room (or null): sent when a recording starts or stops, and after each join.
  socket.on('action:recording_state', ({ roomId, recording }) => {
    if (closed || roomId !== store.getState().roomId) return;
    store.setState({ recording });
  });

  // A warm socket already connected says so no more: what it would do then is done now, every handler set.
  if (warmed?.connected) connected();

  function send(to: string, data: SignalData) {
    const { roomId } = store.getState();
    if (!closed && roomId) socket.emit('request:send_mesage', { to, roomId, data });
  }

  return {
    send,
    roomChat: () => (sfu ? roomChatLink : null),
    leave() {
      const { roomId } = store.getState();
      if (!closed && socket.connected && roomId) socket.emit('request:leave_room', { roomId });
    },
    close() {
      closed = true;
      stopWatchingLayers?.();
      sfu?.close();
      sfu = null;
      detachRoomControls(socket);
      detachWhiteboard(socket);
      detachClassroomTools(socket);
      detachBreakouts(socket);
      socket.removeAllListeners();
      socket.disconnect();
    },
  };
}
