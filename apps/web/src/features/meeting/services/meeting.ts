// Being in a meeting: entering a room (camera and microphone, the ICE servers, then the signalling
// socket), leaving it, and failing to join. It puts one meeting's parts together — the mesh, local
// media, chat, signalling — in a Meeting made by enterRoom() and dropped at teardown, and is where
// components call in (they read the store for the rest). One meeting at a time per tab; nothing renders.
import { messages } from '@mooz/contract/messages';
import { apiRoutes } from '@mooz/contract/api-routes';
import { call, messageOf } from '../../../lib/api';
import { meetingPeerId } from '../identity';
import { captureDevices, webrtcSupported } from './media';
import { initialMeetingState, useMeetingStore } from '../meeting-store';
import { receiveChat, sendChatTo } from './chat-channel';
import * as localMedia from './local-media';
import { meetingToast } from './meeting-toasts';
import { clearJoinMarks, joinMark } from './join-marks';
import { createMesh, type Mesh } from './mesh';
import { openSignalling, type Signalling } from './signalling';

const store = useMeetingStore;

/** What one meeting holds beyond the store. */
interface Meeting {
  readonly mesh: Mesh;
  /** Opened at once; it joins the room once local media and the ICE servers are ready. */
  signalling: Signalling | null;
}

/**
 * The meeting this tab is in. Set by enterRoom() and cleared by teardown(), so it never outlives its
 * meeting; the component-facing functions below act on it, and do nothing between meetings.
 */
let current: Meeting | null = null;

async function loadIceServers(): Promise<RTCIceServer[]> {
  const { data } = await call(apiRoutes.meetings.iceServers);
  return data;
}

/**
 * The camera, microphone and ICE servers asked for at the click on Join (prepareRoom), while the room's
 * page loads: enterRoom takes them for that room. Unclaimed within PREPARED_TTL_MS (the page never came,
 * or another room was entered), the devices are released.
 */
let prepared: { roomId: string; media: Promise<MediaStream>; servers: Promise<RTCIceServer[]>; expiry: ReturnType<typeof setTimeout> } | null = null;
const PREPARED_TTL_MS = 15_000;

/** Starts what entering `roomId` needs before its page is shown: called by the lobby on Join and Start. */
export function prepareRoom(roomId: string) {
  dropPrepared();
  if (!webrtcSupported()) return;
  clearJoinMarks();
  joinMark('prepare');
  const media = captureDevices({ audio: true, video: true });
  const servers = loadIceServers();
  // Whoever claims them sees their failures; until then they are not unhandled.
  media.catch(() => undefined);
  servers.catch(() => undefined);
  prepared = { roomId, media, servers, expiry: setTimeout(dropPrepared, PREPARED_TTL_MS) };
}

function takePrepared(roomId: string) {
  const taken = prepared?.roomId === roomId ? prepared : null;
  if (taken) {
    clearTimeout(taken.expiry);
    prepared = null;
  }
  dropPrepared();
  return taken;
}

function dropPrepared() {
  if (!prepared) return;
  clearTimeout(prepared.expiry);
  prepared.media.then((stream) => stream.getTracks().forEach((track) => track.stop())).catch(() => undefined);
  prepared = null;
}

/** Joins a room: camera and microphone and the ICE servers while the socket connects, then the join. */
export async function enterRoom(roomId: string, userName: string) {
  teardown();
  const early = takePrepared(roomId);
  if (!early) clearJoinMarks();
  joinMark('enter');
  const meeting: Meeting = {
    mesh: createMesh({
      signal: (to, data) => meeting.signalling?.send(to, data),
      message: receiveChat,
      // A peer connection error ends the meeting for this client: it leaves the room.
      leave: leaveRoom,
    }),
    signalling: null,
  };
  current = meeting;
  store.setState({
    ...initialMeetingState(),
    peerId: meetingPeerId(),
    userName: userName.trim(),
    roomId,
    phase: 'connecting',
    localStream: new MediaStream(),
  });
  const servers = (early?.servers ?? loadIceServers()).then(
    (found) => (joinMark('ice-servers'), found),
    (error: unknown) => {
      if (current === meeting) failJoin(messageOf(error, messages.connectionFailed));
      return null;
    },
  );
  const media = localMedia.startDevices(meeting.mesh, { audio: true, video: true }, false, early?.media).finally(() => joinMark('media'));
  // The socket connects and is authenticated while the camera starts; it joins the room (and so links
  // to the others) once the camera and the ICE servers are ready, as before.
  const ready = Promise.all([servers, media]).then(([found]) => {
    if (current !== meeting || !found) return false;
    meeting.mesh.start(found);
    return true;
  });
  meeting.signalling = openSignalling(meeting.mesh, failJoin, ready);
  await ready;
}

/** Joining failed, or the meeting can go on no more: a meeting under way is left with a toast. */
function failJoin(message: string) {
  if (store.getState().phase === 'joined' || store.getState().phase === 'reconnecting') {
    meetingToast.error(message);
    leaveRoom();
    return;
  }
  teardown();
  store.setState({ phase: 'failed', failure: message });
}

/** Closes everything this tab holds for the meeting, without telling anyone. */
function teardown() {
  const meeting = current;
  current = null;
  meeting?.signalling?.close();
  meeting?.mesh.close();
  const { localStream, screenStream } = store.getState();
  for (const stream of [localStream, screenStream]) stream?.getTracks().forEach((track) => track.stop());
  store.setState({ peers: {}, localStream: null, screenStream: null });
}

/** Leaves the room: the others are told, links and devices are released. */
export function leaveRoom() {
  current?.signalling?.leave();
  teardown();
  store.setState({ phase: 'left' });
}

/** Sends a chat to every connected peer; false (and a toast) when it could not be delivered. */
export function sendChat(text: string): boolean {
  return sendChatTo(current?.mesh.connectedLinks() ?? [], text);
}

export function toggleMicrophone() {
  if (current) localMedia.toggleMicrophone(current.mesh);
}

export function toggleCamera() {
  if (current) localMedia.toggleCamera(current.mesh);
}

export async function startScreenShare() {
  if (current) await localMedia.startScreenShare(current.mesh);
}

export function stopScreenShare() {
  if (current) localMedia.stopScreenShare(current.mesh);
}
