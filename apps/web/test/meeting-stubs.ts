// For the meeting's unit tests: the stand-ins of what a meeting needs around it (the API, the camera,
// MediaStream, a peer in the store), one of each for every test file.
import { vi } from 'vitest';
import type { Peer, PeerStatus } from '../src/features/meeting/meeting-store';

/** lib/api for a signed-in user: `call` answers every request (no data, unless a test says otherwise). */
export function standInApi(call: () => Promise<unknown> = async () => ({ data: [] })) {
  return {
    call,
    getAccessToken: () => 'access-token',
    messageOf: (_error: unknown, fallback: string) => fallback,
    refreshAccessToken: async () => 'access-token',
  };
}

/** services/media on a machine with WebRTC but neither a camera nor a screen to capture (jsdom's). */
export const withoutDevices = {
  captureDevices: async () => {
    throw new Error('no camera in tests');
  },
  captureScreen: async () => {
    throw new Error('no screen in tests');
  },
  hasLiveTrack: () => false,
  webrtcSupported: () => true,
};

/** jsdom has no MediaStream: the local stream of a meeting without a camera is one without tracks. */
export function stubMediaStream() {
  vi.stubGlobal(
    'MediaStream',
    class {
      id = 'local';
      getTracks() {
        return [];
      }
    },
  );
}

/** A peer of the meeting store, with no streams yet. */
export const standInPeer = (peerId: string, userName: string, status: PeerStatus = 'connected'): Peer => ({
  peerId,
  userName,
  status,
  initiator: true,
  userStream: null,
  screenStream: null,
  screenStreamId: null,
  userStreamId: null,
  version: 0,
});
