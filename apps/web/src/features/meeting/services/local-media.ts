// This tab's own camera, microphone and screen share in a meeting: starting and stopping them, and
// handing each track to the mesh so every peer gets it. The streams themselves are in the store (the
// tiles show them); each function is given the meeting's mesh, and work that finishes after that
// meeting ended is undone. Capturing from the browser is in ./media.ts.
import { messages } from '@mooz/contract/messages';
import { useMeetingStore } from '../meeting-store';
import { captureDevices, captureScreen, hasLiveTrack } from './media';
import { meetingToast } from './meeting-toasts';
import type { Mesh } from './mesh';
import { reasonOf } from './peer-link';

const store = useMeetingStore;

const bumpLocalVersion = () => store.setState((state) => ({ localVersion: state.localVersion + 1 }));

function addLocalTrack(mesh: Mesh, track: MediaStreamTrack, stream: MediaStream) {
  stream.addTrack(track);
  // A device track that ends is removed from its stream; the end of a screen share clears it.
  track.addEventListener('ended', () => {
    if (stream === store.getState().screenStream) stopScreenShare(mesh);
    else removeLocalTrack(mesh, track, stream);
  });
  mesh.addTrack(track, stream);
  bumpLocalVersion();
  mesh.applyBitrates();
}

function removeLocalTrack(mesh: Mesh, track: MediaStreamTrack, stream: MediaStream) {
  stream.removeTrack(track);
  track.stop();
  mesh.removeTrack(track);
  bumpLocalVersion();
}

/** Starts the camera and/or microphone; false when nothing could be started. */
export async function startDevices(mesh: Mesh, kinds: { audio: boolean; video: boolean }, quiet = false): Promise<boolean> {
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
  try {
    const captured = await captureDevices(kinds);
    if (mesh.ended || store.getState().localStream !== localStream) {
      captured.getTracks().forEach((track) => track.stop());
      return false;
    }
    for (const track of captured.getTracks()) addLocalTrack(mesh, track, localStream);
    return true;
  } catch (error) {
    // Without a camera (or a microphone) the other device may still work: try each on its own.
    if (kinds.audio && kinds.video) {
      const audio = await startDevices(mesh, { audio: true, video: false }, true);
      const video = await startDevices(mesh, { audio: false, video: true }, true);
      if (!audio || !video) meetingToast.error(messages.cannotStartMedia, reasonOf(error));
      return audio || video;
    }
    if (!quiet) meetingToast.error(messages.cannotStartMedia, reasonOf(error));
    return false;
  }
}

function stopVideo(mesh: Mesh) {
  const { localStream } = store.getState();
  for (const track of localStream?.getVideoTracks() ?? []) removeLocalTrack(mesh, track, localStream!);
}

/** Mutes or unmutes the microphone without renegotiating; starts it when there is none. */
export function toggleMicrophone(mesh: Mesh) {
  const { localStream } = store.getState();
  const track = localStream?.getAudioTracks().find((candidate) => candidate.readyState === 'live');
  if (!track) return void startDevices(mesh, { audio: true, video: false });
  track.enabled = !track.enabled;
  bumpLocalVersion();
}

export function toggleCamera(mesh: Mesh) {
  if (hasLiveTrack(store.getState().localStream, 'video')) stopVideo(mesh);
  else void startDevices(mesh, { audio: false, video: true });
}

export async function startScreenShare(mesh: Mesh) {
  if (hasLiveTrack(store.getState().screenStream, 'video')) {
    meetingToast.error(messages.screenAlreadyActive);
    return;
  }
  try {
    const captured = await captureScreen();
    if (mesh.ended || store.getState().phase === 'left') {
      captured.getTracks().forEach((track) => track.stop());
      return;
    }
    const screen = new MediaStream();
    store.setState({ screenStream: screen });
    for (const track of captured.getTracks()) addLocalTrack(mesh, track, screen);
  } catch (error) {
    meetingToast.error(messages.cannotStartScreen, reasonOf(error));
  }
}

export function stopScreenShare(mesh: Mesh) {
  const { screenStream } = store.getState();
  if (!screenStream) return;
  store.setState({ screenStream: null });
  for (const track of screenStream.getTracks()) removeLocalTrack(mesh, track, screenStream);
}
