import type { TFunction } from 'i18next';
import { messages } from '@mooz/contract/messages';

// Capture as the product wants it: echo cancellation, noise suppression, ideal height 720 at 16:9 for the
// camera; the cursor always shown in screen captures.
const audioConstraints: MediaTrackConstraints = { echoCancellation: true, noiseSuppression: true };
const videoConstraints: MediaTrackConstraints = { height: { ideal: 720 }, aspectRatio: { ideal: 16 / 9 } };

export function captureDevices(kinds: { audio: boolean; video: boolean }): Promise<MediaStream> {
  return navigator.mediaDevices.getUserMedia({
    audio: kinds.audio ? audioConstraints : false,
    video: kinds.video ? videoConstraints : false,
  });
}

export function captureScreen(): Promise<MediaStream> {
  return navigator.mediaDevices.getDisplayMedia({ video: { cursor: 'always' } as MediaTrackConstraints, audio: false });
}

export function webrtcSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.RTCPeerConnection === 'function' && !!navigator.mediaDevices?.getUserMedia;
}

/**
 * Why a meeting cannot run in this page, or null when it can. `insecure`: the page is not a secure
 * context (plain http on an address other than localhost), where browsers give no camera, microphone
 * or screen capture at all, so the way out is the address, not the browser. `unsupported`: no WebRTC.
 */
export function meetingBlocker(): MeetingBlocker | null {
  if (typeof window !== 'undefined' && window.isSecureContext === false) return 'insecure';
  return webrtcSupported() ? null : 'unsupported';
}

type MeetingBlocker = 'insecure' | 'unsupported';

/** What the lobby and a meeting link opened there say for a blocker, in the user's language. */
export function meetingBlockerText(t: TFunction, blocker: MeetingBlocker): string {
  return blocker === 'insecure' ? t('meeting.blocked.insecure') : t('messages.webrtcUnsupported', { defaultValue: messages.webrtcUnsupported });
}

export function hasLiveTrack(stream: MediaStream | null, kind: 'audio' | 'video'): boolean {
  return !!stream?.getTracks().some((track) => track.kind === kind && track.readyState === 'live');
}
