// Whether a video track shows a picture. A received track is muted until its first packets, and muted
// again when the sender stops sending it; the tiles show initials meanwhile. But Chrome can leave a
// received track muted after a renegotiation although its packets flow again (it unmutes on a
// connection's first packets only), and the tile then showed initials over a live camera. So, while a
// received track is muted, its receiver is looked at once a second: RTP arriving (the RTP timestamp of
// its source moving on) counts as receiving, until it stops or the track unmutes.
const flowingWhileMuted = new WeakSet<MediaStreamTrack>();
/** A track comes in a track event again at each renegotiation that makes it received again. */
const watched = new WeakSet<MediaStreamTrack>();

/** How often a muted received track's receiver is looked at. */
export const receiverCheckMs = 1_000;

/** Whether the track has a picture to show: live, and unmuted or receiving all the same. */
export function showsPicture(track: MediaStreamTrack): boolean {
  return track.readyState === 'live' && (!track.muted || flowingWhileMuted.has(track));
}

/** Watches a received video track for the rest of its life; `changed` when showsPicture may differ. */
export function watchReceiver(receiver: RTCRtpReceiver, changed: () => void): void {
  const track = receiver.track;
  if (watched.has(track)) return;
  watched.add(track);
  let lastTimestamp: number | undefined;
  const timer = setInterval(() => {
    if (track.readyState === 'ended') {
      clearInterval(timer);
      flowingWhileMuted.delete(track);
      return;
    }
    let flowing = false;
    if (track.muted) {
      const timestamp = receiver.getSynchronizationSources()[0]?.rtpTimestamp;
      flowing = timestamp !== undefined && lastTimestamp !== undefined && timestamp !== lastTimestamp;
      lastTimestamp = timestamp;
    } else {
      lastTimestamp = undefined;
    }
    if (flowing === flowingWhileMuted.has(track)) return;
    if (flowing) flowingWhileMuted.add(track);
    else flowingWhileMuted.delete(track);
    changed();
  }, receiverCheckMs);
}
