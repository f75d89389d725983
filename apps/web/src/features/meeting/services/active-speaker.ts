// Who is speaking: measured from what this page receives, so it works alike in a mesh and on the SFU.
// Every POLL_MS the received audio's energy since the last look (WebRTC's inbound-rtp totalAudioEnergy,
// one getStats per connection) gives each peer a loudness; those above SPEAKING_LEVEL are "speaking"
// (their tiles show it), and the loudest of them, once it has stayed loudest for SWITCH_AFTER looks,
// becomes the active speaker: the stage keeps them in view and asks the SFU for their full layer.
import { useMeetingStore } from '../meeting-store';

const store = useMeetingStore;

const POLL_MS = 400;
/** RMS level (0..1) above which a peer counts as speaking; a quiet room's noise sits well below. */
const SPEAKING_LEVEL = 0.01;
/** Consecutive looks a new voice must be the loudest before the active speaker changes (no flicker on a cough). */
export const SWITCH_AFTER = 2;
/** How much louder than a speaker still talking a new voice must be to take over. */
const TAKEOVER_RATIO = 1.5;

/** Turns loudness per peer, look after look, into who speaks now and who the active speaker is. */
export class SpeakerTracker {
  private candidate: string | null = null;
  private streak = 0;
  speaker: string | null = null;

  /** One look: each peer's level since the last. Returns the peers heard now, loudest first. */
  hear(levels: ReadonlyMap<string, number>): string[] {
    const speaking = [...levels].filter(([, level]) => level >= SPEAKING_LEVEL).sort((a, b) => b[1] - a[1]);
    const [loudest, loudestLevel] = speaking[0] ?? [null, 0];
    const speakerLevel = this.speaker ? (levels.get(this.speaker) ?? 0) : 0;
    // A voice takes over from a speaker still talking only when clearly louder: two people talking at
    // once do not swap the stage back and forth.
    const takesOver = speakerLevel < SPEAKING_LEVEL || loudestLevel >= TAKEOVER_RATIO * speakerLevel;
    if (loudest && loudest !== this.speaker && takesOver) {
      this.streak = loudest === this.candidate ? this.streak + 1 : 1;
      this.candidate = loudest;
      if (this.streak >= SWITCH_AFTER) this.speaker = loudest;
    } else {
      this.candidate = null;
      this.streak = 0;
    }
    return speaking.map(([peerId]) => peerId);
  }

  /** Someone left: they are nobody's speaker any more. */
  forget(present: ReadonlySet<string>) {
    if (this.speaker && !present.has(this.speaker)) this.speaker = null;
  }
}

/** Audio energy and duration received so far, per received track id. */
type Totals = Map<string, { energy: number; seconds: number }>;

async function audioTotals(connections: readonly RTCPeerConnection[]): Promise<Totals> {
  const totals: Totals = new Map();
  // A connection closing meanwhile has no stats to give: it is left out of this look.
  const reports = await Promise.all(connections.map(async (pc) => pc.getStats()).map((report) => report.catch(() => null)));
  for (const report of reports) {
    report?.forEach((stat: { type: string; kind?: string; trackIdentifier?: string; totalAudioEnergy?: number; totalSamplesDuration?: number }) => {
      if (stat.type !== 'inbound-rtp' || stat.kind !== 'audio' || !stat.trackIdentifier) return;
      totals.set(stat.trackIdentifier, { energy: stat.totalAudioEnergy ?? 0, seconds: stat.totalSamplesDuration ?? 0 });
    });
  }
  return totals;
}

/**
 * Watches the speakers of the meeting whose receiving connections `connections` lists, into the store
 * (`speaking`, `speakerId`), until the returned stop is called.
 */
export function watchSpeakers(connections: () => RTCPeerConnection[]): () => void {
  const tracker = new SpeakerTracker();
  let before: Totals = new Map();
  let stopped = false;
  let busy = false;
  const look = async () => {
    if (busy) return;
    busy = true;
    try {
      const now = await audioTotals(connections());
      if (stopped) return;
      const { peers } = store.getState();
      const levels = new Map<string, number>();
      for (const peer of Object.values(peers)) {
        for (const track of peer.userStream?.getAudioTracks() ?? []) {
          const [then, current] = [before.get(track.id), now.get(track.id)];
          if (!then || !current || current.seconds <= then.seconds) continue;
          // Energy is the sum of level² × duration: its rise over the time passed is the mean power.
          const level = Math.sqrt(Math.max(0, current.energy - then.energy) / (current.seconds - then.seconds));
          levels.set(peer.peerId, Math.max(levels.get(peer.peerId) ?? 0, level));
        }
      }
      before = now;
      tracker.forget(new Set(Object.keys(peers)));
      const speaking = tracker.hear(levels).sort();
      const state = store.getState();
      const same = speaking.length === state.speaking.length && speaking.every((id, i) => id === state.speaking[i]);
      if (!same || tracker.speaker !== state.speakerId) store.setState({ speaking: same ? state.speaking : speaking, speakerId: tracker.speaker });
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void look(), POLL_MS);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
