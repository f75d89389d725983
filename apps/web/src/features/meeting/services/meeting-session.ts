// The side effects of being in a meeting: the signalling socket, the mesh of peer links, local media,
// chat, and the bitrate budget. Components call these functions and read the store; nothing here
// renders. One meeting at a time per tab.
import { io, type Socket } from 'socket.io-client';
import i18n from 'i18next';
import { limits } from '@mooz/contract/limits';
import { messages } from '@mooz/contract/messages';
import {
  socketPath,
  socketTransports,
  videoBitrateKbps,
  type ClientToServerEvents,
  type IceServer,
  type Room,
  type SdpSignal,
  type ServerToClientEvents,
  type StreamMetaData,
} from '@mooz/contract/realtime';
import { api, getAccessToken, messageOf, refreshAccessToken } from '../../../lib/api';
import { readStoredUser } from '../../../lib/session';
import { decodeChat, encodeChat, truncateForNotification } from '../chat';
import { meetingSessionId } from '../identity';
import { chatsInView, initialMeetingState, openChats, updatePeer, useMeetingStore, type Peer } from '../meeting-store';
import { captureDevices, captureScreen, hasLiveTrack } from './media';
import { meetingToast } from './meeting-toasts';
import { PeerLink, reasonOf, type PeerStatus } from './peer-link';

type MeetingSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const store = useMeetingStore;
const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options ?? {});
const nameOf = (name: string | undefined) => name?.trim() || t('meeting.anonymous');

let socket: MeetingSocket | null = null;
let iceServers: RTCIceServer[] = [];
/** Each enterRoom() gets a number; async work of an earlier one stops when it sees a newer one. */
let generation = 0;
let channelCheck: ReturnType<typeof setInterval> | undefined;
const destroyTimers = new Map<string, ReturnType<typeof setTimeout>>();
/** Links this side closes on purpose: no "closed" toast for them. */
const quietlyClosing = new WeakSet<PeerLink>();
/**
 * Names of peers whose link finished before the server said they left: on a slow network the
 * link's close (and the peer's removal 1 s later) can come first, and they still deserve a goodbye.
 */
const departedNames = new Map<string, string>();
const DEPARTED_MEMORY_MS = 30_000;

/** Reads the server's connect_error as spec §8 says: JSON message, else the raw one, else 'Connection failed'. */
export function connectErrorMessage(error: { message?: string } | null | undefined): string {
  const raw = error?.message;
  if (!raw) return messages.connectionFailed;
  try {
    const parsed = JSON.parse(raw) as { message?: unknown };
    if (parsed && typeof parsed.message === 'string' && parsed.message) return parsed.message;
  } catch {
    // Not JSON: the raw message is the best we have.
  }
  return raw;
}

function metaData(): StreamMetaData {
  const { localStream, screenStream } = store.getState();
  return { screenStreamId: screenStream?.id ?? null, userStreamId: localStream?.id ?? null };
}

function livePeers(): Peer[] {
  return Object.values(store.getState().peers).filter((peer) => peer.status === 'signalling' || peer.status === 'connected');
}

/** Spec §9: 2000 kbps shared by the connections, at least 150 kbps, on every video sender. */
export function applyBitrates() {
  const peers = livePeers();
  const kbps = videoBitrateKbps(peers.length);
  for (const peer of peers) void peer.link.limitVideoBitrate(kbps);
}

function sendSignal(to: string, data: Parameters<ClientToServerEvents['request:send_mesage']>[0]['data']) {
  const { roomId } = store.getState();
  if (socket && roomId) socket.emit('request:send_mesage', { to, roomId, data });
}

// ---- peers ------------------------------------------------------------------------------------

function createPeer(userId: string, userName: string, initiator: boolean): Peer {
  const { sessionId, localStream, screenStream } = store.getState();
  const link = new PeerLink(iceServers, sessionId < userId, initiator, {
    signal: (sdpSignal: SdpSignal) => sendSignal(userId, { sdpSignal, metaData: metaData() }),
    status: (status, reason) => onPeerStatus(userId, link, status, reason),
    track: (event) => onRemoteTrack(userId, event),
    message: (text) => onChatData(userId, text),
    stable: () => applyBitrates(),
  });
  for (const track of localStream?.getTracks() ?? []) link.addTrack(track, localStream!);
  for (const track of screenStream?.getTracks() ?? []) link.addTrack(track, screenStream!);
  const peer: Peer = {
    userId,
    userName: nameOf(userName),
    status: 'signalling',
    initiator,
    link,
    userStream: null,
    screenStream: null,
    screenStreamId: null,
    userStreamId: null,
    version: 0,
  };
  store.setState((state) => ({ peers: { ...state.peers, [userId]: peer } }));
  applyBitrates();
  return peer;
}

/** Removes a peer now: its link closed, its streams stopped, gone from the list. */
function destroyPeer(userId: string) {
  clearTimeout(destroyTimers.get(userId));
  destroyTimers.delete(userId);
  const peer = store.getState().peers[userId];
  if (!peer) return;
  quietlyClosing.add(peer.link);
  peer.link.close();
  departedNames.set(userId, peer.userName);
  setTimeout(() => {
    if (departedNames.get(userId) === peer.userName) departedNames.delete(userId);
  }, DEPARTED_MEMORY_MS);
  for (const stream of [peer.userStream, peer.screenStream]) stream?.getTracks().forEach((track) => track.stop());
  store.setState((state) => {
    const { [userId]: _gone, ...rest } = state.peers;
    return { peers: rest };
  });
  applyBitrates();
}

/** A peer we may connect to: none yet, or only a finished one on its way out. */
function replaceableTo(userId: string): boolean {
  const existing = store.getState().peers[userId];
  if (existing && (existing.status === 'signalling' || existing.status === 'connected')) return false;
  if (existing) destroyPeer(userId);
  return true;
}

function onPeerStatus(userId: string, link: PeerLink, status: PeerStatus, reason?: string) {
  const peer = store.getState().peers[userId];
  if (!peer || peer.link !== link) return;
  updatePeer(userId, { status });
  if (status === 'connected') {
    meetingToast.short(t('meeting.toast.peerConnected', { name: peer.userName }));
    applyBitrates();
  } else if (status === 'closed') {
    if (!quietlyClosing.has(link)) meetingToast.short(t('meeting.toast.peerClosed', { name: peer.userName }));
    applyBitrates();
    destroyTimers.set(userId, setTimeout(() => destroyPeer(userId), limits.peerDestroyDelayMs));
  } else if (status === 'error') {
    meetingToast.error(messages.peerConnectionError, reason);
    // Spec §4: on a peer connection error the client leaves the room.
    leaveRoom();
  }
}

function onRemoteTrack(userId: string, event: RTCTrackEvent) {
  const peer = store.getState().peers[userId];
  if (!peer) return;
  const stream = event.streams[0] ?? new MediaStream([event.track]);
  const isScreen = stream.id === peer.screenStreamId;
  const bump = () => updatePeer(userId, (current) => ({ version: current.version + 1 }));
  stream.onaddtrack = bump;
  stream.onremovetrack = () => {
    if (isScreen && stream.getTracks().length === 0) updatePeer(userId, (current) => (current.screenStream === stream ? { screenStream: null } : {}));
    bump();
  };
  event.track.onmute = bump;
  event.track.onunmute = bump;
  updatePeer(userId, (current) => ({ ...(isScreen ? { screenStream: stream } : { userStream: stream }), version: current.version + 1 }));
}

function onMetaData(userId: string, meta: Partial<StreamMetaData> | undefined) {
  if (!meta) return;
  updatePeer(userId, (peer) => {
    const screenStreamId = meta.screenStreamId ?? null;
    const patch: Partial<Peer> = { screenStreamId, userStreamId: meta.userStreamId ?? null };
    // The screen share ended on their side.
    if (peer.screenStream && peer.screenStream.id !== screenStreamId) patch.screenStream = null;
    return patch;
  });
}

// ---- chat -------------------------------------------------------------------------------------

function playChatSound() {
  try {
    const audio = new Audio('/sounds/chat-received.mp3');
    audio.volume = limits.chatSoundVolume;
    // Autoplay rules may refuse a sound before the user has interacted; the toast still shows.
    void audio.play().catch(() => undefined);
  } catch {
    // No audio output available.
  }
}

function onChatData(userId: string, text: string) {
  const chat = decodeChat(text);
  if (!chat) return;
  const peer = store.getState().peers[userId];
  const userLabel = chat.userLabel || peer?.userName || t('meeting.anonymous');
  store.setState((state) => ({
    messages: [...state.messages, { id: chat.id, userLabel, text: chat.text, mine: false, at: Date.now() }],
  }));
  playChatSound();
  if (chatsInView(store.getState())) return;
  store.setState((state) => ({ unread: state.unread + 1 }));
  meetingToast.chat(
    t('meeting.toast.chatReceived', { label: userLabel, text: truncateForNotification(chat.text) }),
    t('meeting.toast.openChats'),
    openChats,
  );
}

/** Sends a chat to everyone connected; on failure it is taken back out of the list. */
export function sendChat(text: string): boolean {
  const body = text.trim();
  if (!body) return false;
  const { userName } = store.getState();
  const message = { id: crypto.randomUUID(), userLabel: userName, text: body };
  store.setState((state) => ({ messages: [...state.messages, { ...message, mine: true, at: Date.now() }] }));
  const wire = encodeChat(message);
  const targets = livePeers().filter((peer) => peer.status === 'connected');
  const delivered = targets.length > 0 && targets.map((peer) => peer.link.send(wire)).every(Boolean);
  if (!delivered) {
    meetingToast.error(messages.chatSendFailed);
    store.setState((state) => ({ messages: state.messages.filter((m) => m.id !== message.id) }));
  }
  return delivered;
}

// ---- local media ------------------------------------------------------------------------------

function addLocalTrack(track: MediaStreamTrack, stream: MediaStream) {
  stream.addTrack(track);
  // Spec §4: a device track that ends is removed from its stream; the end of a screen share clears it.
  track.addEventListener('ended', () => {
    if (stream === store.getState().screenStream) stopScreenShare();
    else removeLocalTrack(track, stream);
  });
  for (const peer of livePeers()) peer.link.addTrack(track, stream);
  store.setState((state) => ({ localVersion: state.localVersion + 1 }));
  applyBitrates();
}

function removeLocalTrack(track: MediaStreamTrack, stream: MediaStream) {
  stream.removeTrack(track);
  track.stop();
  for (const peer of Object.values(store.getState().peers)) peer.link.removeTrack(track);
  store.setState((state) => ({ localVersion: state.localVersion + 1 }));
}

/** Starts the camera and/or microphone; false when nothing could be started. */
async function startDevices(kinds: { audio: boolean; video: boolean }, quiet = false): Promise<boolean> {
  const { localStream } = store.getState();
  if (!localStream) return false;
  if (kinds.audio && hasLiveTrack(localStream, 'audio')) {
    meetingToast.error(messages.audioAlreadyActive);
    return false;
  }
  if (kinds.video && hasLiveTrack(localStream, 'video')) {
    meetingToast.error(messages.videoAlreadyActive);
    return false;
  }
  const mine = generation;
  try {
    const captured = await captureDevices(kinds);
    if (mine !== generation || store.getState().localStream !== localStream) {
      captured.getTracks().forEach((track) => track.stop());
      return false;
    }
    for (const track of captured.getTracks()) addLocalTrack(track, localStream);
    return true;
  } catch (error) {
    // Without a camera (or a microphone) the other device may still work: try each on its own.
    if (kinds.audio && kinds.video) {
      const audio = await startDevices({ audio: true, video: false }, true);
      const video = await startDevices({ audio: false, video: true }, true);
      if (!audio || !video) meetingToast.error(messages.cannotStartMedia, reasonOf(error));
      return audio || video;
    }
    if (!quiet) meetingToast.error(messages.cannotStartMedia, reasonOf(error));
    return false;
  }
}

export const startAudio = () => void startDevices({ audio: true, video: false });
export const startVideo = () => void startDevices({ audio: false, video: true });

export function stopVideo() {
  const { localStream } = store.getState();
  for (const track of localStream?.getVideoTracks() ?? []) removeLocalTrack(track, localStream!);
}

/** Mutes or unmutes the microphone without renegotiating; starts it when there is none. */
export function toggleMicrophone() {
  const { localStream } = store.getState();
  const track = localStream?.getAudioTracks().find((candidate) => candidate.readyState === 'live');
  if (!track) return startAudio();
  track.enabled = !track.enabled;
  store.setState((state) => ({ localVersion: state.localVersion + 1 }));
}

export function toggleCamera() {
  if (hasLiveTrack(store.getState().localStream, 'video')) stopVideo();
  else startVideo();
}

export async function startScreenShare() {
  if (hasLiveTrack(store.getState().screenStream, 'video')) {
    meetingToast.error(messages.screenAlreadyActive);
    return;
  }
  const mine = generation;
  try {
    const captured = await captureScreen();
    if (mine !== generation || store.getState().phase === 'left') {
      captured.getTracks().forEach((track) => track.stop());
      return;
    }
    const screen = new MediaStream();
    store.setState({ screenStream: screen });
    for (const track of captured.getTracks()) addLocalTrack(track, screen);
  } catch (error) {
    meetingToast.error(messages.cannotStartScreen, reasonOf(error));
  }
}

export function stopScreenShare() {
  const { screenStream } = store.getState();
  if (!screenStream) return;
  store.setState({ screenStream: null });
  for (const track of screenStream.getTracks()) removeLocalTrack(track, screenStream);
}

// ---- the room ---------------------------------------------------------------------------------

function userRole(): string | null {
  const user = readStoredUser();
  return (user?.role as string | undefined) ?? user?.user_type ?? null;
}

function failJoin(message: string) {
  if (store.getState().phase === 'joined' || store.getState().phase === 'reconnecting') {
    meetingToast.error(message);
    leaveRoom();
    return;
  }
  teardown();
  store.setState({ phase: 'failed', failure: message });
}

function join(mine: number) {
  const { roomId, userName } = store.getState();
  if (!socket || !roomId) return;
  socket.emit('request:join_room', { roomId, userName }, (res) => {
    if (mine !== generation) return;
    if ('error' in res) return failJoin(res.error);
    store.setState({ room: res.room, phase: 'joined', failure: null });
  });
}

function connectSocket(mine: number) {
  let refreshedOnce = false;
  let reportedOutage = false;
  const next: MeetingSocket = io({
    path: socketPath,
    transports: [...socketTransports],
    // A function, so every reconnection carries the current token and the room we are in.
    auth: (send) => {
      const { sessionId, roomId, phase } = store.getState();
      send({
        sessionId,
        currentRoomId: phase === 'joined' || phase === 'reconnecting' ? roomId : null,
        token: getAccessToken() ?? '',
        userRole: userRole(),
      });
    },
  });
  socket = next;

  next.on('connect', () => {
    reportedOutage = false;
    join(mine);
  });
  next.on('connect_error', (error) => {
    if (mine !== generation) return;
    const message = connectErrorMessage(error);
    if (next.active) {
      // A transport failure: socket.io keeps retrying; say so once.
      if (!reportedOutage) meetingToast.error(message);
      reportedOutage = true;
      if (store.getState().phase === 'joined') store.setState({ phase: 'reconnecting' });
      return;
    }
    // Refused by the server. An expired access token gets one refresh before we give up.
    if (message === messages.unauthorized && !refreshedOnce) {
      refreshedOnce = true;
      refreshAccessToken().then(
        () => mine === generation && next.connect(),
        () => mine === generation && failJoin(message),
      );
      return;
    }
    meetingToast.error(message);
    failJoin(message);
  });
  next.on('disconnect', (reason) => {
    if (mine !== generation || reason === 'io client disconnect') return;
    if (reason === 'io server disconnect') {
      // The same sessionId connected elsewhere (a duplicated tab): that one holds the place now.
      failJoin(t('meeting.replacedElsewhere'));
      return;
    }
    if (store.getState().phase === 'joined') store.setState({ phase: 'reconnecting' });
  });
  next.on('error', ({ message }) => console.warn('Signalling server:', message));

  next.on('action:room_connection_established', ({ room }: { room: Room }) => {
    // A fresh membership (our place was not kept): links from before belong to the old one.
    for (const userId of Object.keys(store.getState().peers)) destroyPeer(userId);
    store.setState({ room });
  });
  next.on('action:establish_peer_connection', ({ userId, userName }) => {
    if (userId === store.getState().sessionId || !replaceableTo(userId)) return;
    createPeer(userId, userName, true);
    sendSignal(userId, { connection: true, userName: store.getState().userName });
  });
  next.on('action:message_received', ({ from, data }) => {
    if (from === store.getState().sessionId) return;
    if ('connection' in data && data.connection === true) {
      if (!replaceableTo(from)) return;
      createPeer(from, typeof data.userName === 'string' ? data.userName : '', false);
      return;
    }
    if ('sdpSignal' in data && data.sdpSignal) {
      const peer = store.getState().peers[from];
      if (!peer) return;
      onMetaData(from, data.metaData as Partial<StreamMetaData> | undefined);
      void peer.link.receive(data.sdpSignal as SdpSignal);
    }
  });
  // The server could not give our place back after an outage of its shared state: join again, by
  // ourselves; the others were told we left, so the links are made anew and the call goes on.
  next.on('action:rejoin_required', ({ roomId }) => {
    if (mine !== generation || roomId !== store.getState().roomId) return;
    join(mine);
  });
  // This account joined the room from another tab or device, which has our place now.
  next.on('action:replaced_elsewhere', ({ roomId }) => {
    if (mine !== generation || roomId !== store.getState().roomId) return;
    failJoin(t('meeting.replacedByAccount'));
  });
  next.on('action:terminate_peer_connection', ({ userId }) => {
    const peer = store.getState().peers[userId];
    const name = peer?.userName ?? departedNames.get(userId);
    departedNames.delete(userId);
    if (name === undefined) return;
    meetingToast.medium(t('meeting.toast.left', { name: nameOf(name) }));
    if (peer) destroyPeer(userId);
    departedNames.delete(userId);
  });
}

async function loadIceServers(): Promise<RTCIceServer[]> {
  const { data } = await api<IceServer[]>('/api/ice-servers/');
  return data;
}

/** Joins a room: camera and microphone, the ICE servers, then the socket. */
export async function enterRoom(roomId: string, userName: string) {
  teardown();
  const mine = ++generation;
  store.setState({
    ...initialMeetingState(),
    sessionId: meetingSessionId(),
    userName: userName.trim(),
    roomId,
    phase: 'connecting',
    localStream: new MediaStream(),
  });
  const [servers] = await Promise.all([
    loadIceServers().catch((error: unknown) => {
      if (mine === generation) failJoin(messageOf(error, messages.connectionFailed));
      return null;
    }),
    startDevices({ audio: true, video: true }),
  ]);
  if (mine !== generation || !servers) return;
  iceServers = servers;
  channelCheck = setInterval(() => {
    for (const peer of Object.values(store.getState().peers)) peer.link.checkChannel();
  }, limits.channelClosingCheckMs);
  connectSocket(mine);
}

/** Closes everything this tab holds for the meeting, without telling anyone. */
function teardown() {
  generation += 1;
  clearInterval(channelCheck);
  for (const timer of destroyTimers.values()) clearTimeout(timer);
  destroyTimers.clear();
  departedNames.clear();
  socket?.removeAllListeners();
  socket?.disconnect();
  socket = null;
  const { peers, localStream, screenStream } = store.getState();
  for (const peer of Object.values(peers)) {
    quietlyClosing.add(peer.link);
    peer.link.close();
  }
  for (const stream of [localStream, screenStream]) stream?.getTracks().forEach((track) => track.stop());
  store.setState({ peers: {}, localStream: null, screenStream: null });
}

/** Leaves the room: the others are told, links and devices are released. */
export function leaveRoom() {
  const { roomId } = store.getState();
  if (socket?.connected && roomId) socket.emit('request:leave_room', { roomId });
  teardown();
  store.setState({ phase: 'left' });
}

function createRoomOnce(room: { name: string; capacity: number }): Promise<Room> {
  return new Promise((resolve, reject) => {
    const creator: MeetingSocket = io({
      path: socketPath,
      transports: [...socketTransports],
      reconnection: false,
      forceNew: true,
      // Its own peer id, so it never replaces this tab's meeting connection.
      auth: { sessionId: crypto.randomUUID(), currentRoomId: null, token: getAccessToken() ?? '', userRole: userRole() },
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
    if ((error as Error).message !== messages.unauthorized) throw error;
    await refreshAccessToken();
    return createRoomOnce(room);
  }
}
