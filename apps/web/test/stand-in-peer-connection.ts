// For the meeting's unit tests: just enough of RTCPeerConnection for a link. A test file extends it with
// what it watches (the calls made, the configuration given) and keeps its own list of the links made.
import { vi } from 'vitest';

type IceCandidateHandler = (event: { candidate: { type: string; toJSON(): object } | null }) => void;

export class StandInPeerConnection {
  signalingState: RTCSignalingState = 'stable';
  iceConnectionState: RTCIceConnectionState = 'new';
  localDescription: { type: string; sdp: string; toJSON(): object } | null = null;
  restartIce = vi.fn();
  // A property, not a method, so that a test may put a spy in its place.
  setRemoteDescription: (description: { type: string }) => Promise<void> = async () => undefined;
  onnegotiationneeded: (() => void) | null = null;
  onicecandidate: IceCandidateHandler | null = null;
  ontrack: (() => void) | null = null;
  onsignalingstatechange: (() => void) | null = null;
  oniceconnectionstatechange: (() => void) | null = null;
  createDataChannel() {
    return { readyState: 'open', close() {}, send() {}, bufferedAmount: 0 };
  }
  addTrack(_track: { kind: string }) {
    return {};
  }
  getSenders() {
    return [];
  }
  async setLocalDescription() {}
  async addIceCandidate() {}
  close() {
    this.signalingState = 'closed';
  }
  /** ICE comes to `state`, and the link hears of it as from a browser. */
  iceState(state: RTCIceConnectionState) {
    this.iceConnectionState = state;
    this.oniceconnectionstatechange?.();
  }
}
