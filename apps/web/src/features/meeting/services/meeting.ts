// Being in a meeting: entering a room (camera and microphone, the ICE servers, then the signalling
// socket), leaving it, and failing to join. It puts one meeting's parts together — the mesh, local
// media, chat, signalling — in a Meeting made by enterRoom() and dropped at teardown, and is where
// components call in (they read the store for the rest). One meeting at a time per tab; nothing renders.
import { messages } from '@mooz/contract/messages';
import { apiRoutes } from '@mooz/contract/api-routes';
import { call, messageOf } from '../../../lib/api';
import { meetingPeerId } from '../identity';
import { initialMeetingState, useMeetingStore } from '../meeting-store';
import { receiveChat, sendChatTo } from './chat-channel';
import * as localMedia from './local-media';
import { meetingToast } from './meeting-toasts';
import { createMesh, type Mesh } from './mesh';
import { openSignalling, type Signalling } from './signalling';

const store = useMeetingStore;

/** What one meeting holds beyond the store. */
interface Meeting {
  readonly mesh: Mesh;
  /** Opened once the ICE servers are known. */
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

/** Joins a room: camera and microphone, the ICE servers, then the socket. */
export async function enterRoom(roomId: string, userName: string) {
  teardown();
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
  const [servers] = await Promise.all([
    loadIceServers().catch((error: unknown) => {
      if (current === meeting) failJoin(messageOf(error, messages.connectionFailed));
      return null;
    }),
    localMedia.startDevices(meeting.mesh, { audio: true, video: true }),
  ]);
  if (current !== meeting || !servers) return;
  meeting.mesh.start(servers);
  meeting.signalling = openSignalling(meeting.mesh, failJoin);
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
