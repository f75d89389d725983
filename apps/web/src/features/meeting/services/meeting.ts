// Being in a meeting: entering a room (camera and microphone, the ICE servers, then the signalling
// socket), leaving it, and failing to join. It puts one meeting's parts together — the mesh, local
// media, chat, signalling — in a Meeting made by enterRoom() and dropped at teardown, and is where
// components call in (they read the store for the rest). One meeting at a time per tab; nothing renders.
import { messages } from '@mooz/contract/messages';
import { messageOf } from '../../../lib/api';
import { meetingPeerId } from '../identity';
import { webrtcSupported } from './media';
import { initialMeetingState, useMeetingStore } from '../meeting-store';
import { receiveChat, sendChatTo } from './chat-channel';
import * as localMedia from './local-media';
import { meetingToast } from './meeting-toasts';
import { clearJoinMarks, joinMark } from './join-marks';
import { knownIceConfiguration, loadIceConfiguration } from './ice-servers';
import { createMesh, type Mesh } from './mesh';
import { openSignalling, type Signalling } from './signalling';
import { watchSpeakers } from './active-speaker';

const store = useMeetingStore;

/** What one meeting holds beyond the store. */
interface Meeting {
  readonly mesh: Mesh;
  /** Opened at once; it joins the room once the ICE servers are known. */
  signalling: Signalling | null;
  /** Stops listening for who speaks. */
  stopSpeakers?: () => void;
}

/**
 * The meeting this tab is in. Set by enterRoom() and cleared by teardown(), so it never outlives its
 * meeting; the component-facing functions below act on it, and do nothing between meetings.
 */
let current: Meeting | null = null;

/**
 * A meeting begun at the click on Join or Start (prepareRoom), while the room's page loads: camera,
 * ICE servers, socket and the join itself run from the click, so the others link to us while this tab
 * is still rendering. The page's enterRoom claims it for the same room and name. Unclaimed within
 * PREPARED_TTL_MS (the page never came, or another room was entered), it is left.
 */
let prepared: { meeting: Meeting; roomId: string; userName: string; ready: Promise<void>; expiry: ReturnType<typeof setTimeout> } | null = null;
const PREPARED_TTL_MS = 15_000;

/** Starts entering `roomId` before its page is shown: called by the lobby on Join and Start. */
export function prepareRoom(roomId: string, userName: string) {
  dropPrepared();
  if (!webrtcSupported() || !userName.trim()) return;
  clearJoinMarks();
  joinMark('prepare');
  const ready = begin(roomId, userName);
  const meeting = current!;
  prepared = {
    meeting,
    roomId,
    userName: userName.trim(),
    ready,
    expiry: setTimeout(() => {
      if (prepared?.meeting !== meeting) return;
      prepared = null;
      if (current === meeting) leaveRoom();
    }, PREPARED_TTL_MS),
  };
}

function takePrepared(roomId: string, userName: string) {
  const taken = prepared?.roomId === roomId && prepared.userName === userName.trim() ? prepared : null;
  if (taken) {
    clearTimeout(taken.expiry);
    prepared = null;
  }
  dropPrepared();
  return taken;
}

/** An unclaimed early meeting that is not wanted: the others are told we left. */
function dropPrepared() {
  if (!prepared) return;
  clearTimeout(prepared.expiry);
  const { meeting } = prepared;
  prepared = null;
  if (current === meeting) leaveRoom();
}

/**
 * Joins a room (the room's page calls it): the meeting prepareRoom began for this room and name if
 * there is one (as it stands: joined, waiting in the lobby, or already failed or left), else a new one.
 */
export async function enterRoom(roomId: string, userName: string) {
  const early = takePrepared(roomId, userName);
  if (early) {
    joinMark('enter');
    // Ended before the page came (refused, failed, left): the store says how, and the page shows it.
    if (current === early.meeting) await early.ready;
    return;
  }
  clearJoinMarks();
  joinMark('enter');
  await begin(roomId, userName);
}

/**
 * A new meeting in `roomId`: the camera and microphone start, and the join goes out as soon as the socket
 * is connected and the ICE servers are known. Nothing waits for the camera: the others' offers are
 * answered at once, so their video shows as soon as the links connect, and our tracks follow on the
 * links when the camera is on (each link negotiates them again, services/peer-link.ts).
 */
async function begin(roomId: string, userName: string) {
  teardown();
  const meeting: Meeting = {
    mesh: createMesh({
      signal: (to, data) => meeting.signalling?.send(to, data),
      message: receiveChat,
      // A peer connection error ends the meeting for this client: it leaves the room (saying why, when known).
      leave: (why) => (why ? leaveFailed(why) : leaveRoom()),
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
  const media = localMedia.startDevices(meeting.mesh, { audio: true, video: true }).finally(() => joinMark('media'));
  const mediaSettled = media.then(
    () => undefined,
    () => undefined,
  );
  const known = knownIceConfiguration();
  let ready: Promise<boolean> | true;
  if (known) {
    joinMark('ice-servers');
    meeting.mesh.start(known);
    ready = true;
  } else {
    ready = loadIceConfiguration().then(
      (found) => {
        joinMark('ice-servers');
        if (current !== meeting) return false;
        meeting.mesh.start(found);
        return true;
      },
      (error: unknown) => {
        if (current === meeting) failJoin(messageOf(error, messages.connectionFailed));
        return false;
      },
    );
  }
  meeting.signalling = openSignalling(meeting.mesh, failJoin, ready, () => meeting.mesh.iceConfiguration());
  meeting.stopSpeakers = watchSpeakers(() => meeting.mesh.receivingConnections());
  await Promise.all([ready, mediaSettled]);
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
  meeting?.stopSpeakers?.();
  meeting?.mesh.close();
  const { localStream, screenStream } = store.getState();
  for (const stream of [localStream, screenStream]) stream?.getTracks().forEach((track) => track.stop());
  store.setState({ peers: {}, localStream: null, screenStream: null });
}

/** Leaves the room, which stays on screen saying `why` (a network that lets no media through), with Try again. */
function leaveFailed(why: string) {
  current?.signalling?.leave();
  teardown();
  store.setState({ phase: 'failed', failure: why });
}

/** Leaves the room: the others are told, links and devices are released. */
export function leaveRoom() {
  current?.signalling?.leave();
  teardown();
  store.setState({ phase: 'left' });
}

/** Sends a chat to every connected peer; false (and a toast) when it could not be delivered. */
export function sendChat(text: string): boolean {
  // In an SFU room a chat goes to everyone through the server; in a mesh, over each link's data channel.
  const roomChat = current?.signalling?.roomChat();
  return sendChatTo(roomChat ? [roomChat] : (current?.mesh.connectedLinks() ?? []), text);
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
