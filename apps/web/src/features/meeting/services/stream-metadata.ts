// Which incoming stream is a peer's camera and which its screen share. A track carries no such label,
// so each side sends its stream ids with every description (the signal's `metaData`) and the receiver
// sorts what arrives by them. Only the store is touched here: the mesh calls in with the peer's id.
import type { StreamMetaData } from '@mooz/contract/realtime';
import { updatePeer, useMeetingStore } from '../meeting-store';
import { watchReceiver } from './receiving';

/** This tab's stream ids, sent along with every description. */
export function localStreamIds(): StreamMetaData {
  const { localStream, screenStream } = useMeetingStore.getState();
  return { screenStreamId: screenStream?.id ?? null, userStreamId: localStream?.id ?? null };
}

/** Remembers the ids a peer sent; a screen stream it no longer names has ended on its side. */
export function noteStreamIds(peerId: string, meta: Partial<StreamMetaData> | undefined) {
  if (!meta) return;
  const peer = useMeetingStore.getState().peers[peerId];
  const screenStreamId = meta.screenStreamId ?? null;
  const userStreamId = meta.userStreamId ?? null;
  const screenEnded = !!peer?.screenStream && peer.screenStream.id !== screenStreamId;
  // Every candidate carries the ids too: unchanged, the store is left alone, so the room does not
  // re-render for each (a dozen while the first video is on its way).
  if (!peer || (peer.screenStreamId === screenStreamId && peer.userStreamId === userStreamId && !screenEnded)) return;
  updatePeer(peerId, { screenStreamId, userStreamId, ...(screenEnded ? { screenStream: null } : {}) });
}

/** Shows an incoming track in the peer's camera or screen tile, and re-renders as its stream changes. */
export function showRemoteTrack(peerId: string, event: RTCTrackEvent) {
  const peer = useMeetingStore.getState().peers[peerId];
  if (!peer) return;
  const stream = event.streams[0] ?? new MediaStream([event.track]);
  const isScreen = stream.id === peer.screenStreamId;
  // The stream object stays the same when its tracks change: the version tells the tiles to look again.
  const bump = () => updatePeer(peerId, (current) => ({ version: current.version + 1 }));
  stream.onaddtrack = bump;
  stream.onremovetrack = () => {
    if (isScreen && stream.getTracks().length === 0) updatePeer(peerId, (current) => (current.screenStream === stream ? { screenStream: null } : {}));
    bump();
  };
  event.track.onmute = bump;
  event.track.onunmute = bump;
  if (event.track.kind === 'video') watchReceiver(event.receiver, bump);
  updatePeer(peerId, (current) => ({ ...(isScreen ? { screenStream: stream } : { userStream: stream }), version: current.version + 1 }));
}
