// The recording's sound: the local microphone and every remote audio track mixed by Web Audio into one
// track for the MediaRecorder. `sync` is given the audio tracks of the meeting as they are now (after
// someone joins or leaves, or turns a microphone on) and connects the new ones and lets go of those
// that are gone, so the mix follows the class without restarting the recording. A muted microphone
// (a disabled track) gives silence by itself; nothing is done for it. The context is made in the
// Record button's click, so the browser lets it run (a context made later may stay suspended, and give
// no sound at all).
import type { MeetingState } from '../meeting-store';

export interface AudioMix {
  /** The mixed track; silent while nobody has a microphone. */
  readonly track: MediaStreamTrack;
  /** Mixes exactly these tracks from now on. */
  sync(tracks: readonly MediaStreamTrack[]): void;
  /** How many tracks are mixed now. */
  readonly size: number;
  close(): void;
}

/** What the mix needs of Web Audio, so it can be tried without a browser. */
export interface MixContext {
  createMediaStreamDestination(): { stream: MediaStream };
  createConstantSource(): { offset: { value: number }; connect(destination: never): unknown; start(): void; stop(): void };
  createMediaStreamSource(stream: MediaStream): { connect(destination: never): unknown; disconnect(): void };
  resume(): Promise<void>;
  close(): Promise<void>;
}

/** Every live audio track of the meeting: the local microphone and each peer's (a departed peer's tracks are stopped). */
export function meetingAudioTracks(state: Pick<MeetingState, 'peers' | 'localStream'>): MediaStreamTrack[] {
  const streams = [state.localStream, ...Object.values(state.peers).map((peer) => peer.userStream)];
  return streams.flatMap((stream) => stream?.getAudioTracks().filter((track) => track.readyState === 'live') ?? []);
}

// 'playback': the mix is only recorded, never heard, so large buffers cost nothing and keep the sound
// whole on a busy machine (an audio thread that misses its deadlines loses samples, and the recording time).
export function createAudioMix(context: MixContext = new AudioContext({ latencyHint: 'playback' }) as unknown as MixContext): AudioMix {
  const destination = context.createMediaStreamDestination();
  const sources = new Map<string, ReturnType<MixContext['createMediaStreamSource']>>();
  // Silence, always connected: Chromium's destination gives no samples at all while nothing is
  // connected to it, and a MediaRecorder waiting for its audio then writes nothing, not even video
  // (a host alone without a microphone would record an empty file).
  const silence = context.createConstantSource();
  silence.offset.value = 0;
  silence.connect(destination as never);
  silence.start();
  void context.resume().catch(() => undefined);
  const track = destination.stream.getAudioTracks()[0]!;

  return {
    track,
    get size() {
      return sources.size;
    },
    sync(tracks) {
      const wanted = new Map(tracks.filter((candidate) => candidate.readyState === 'live').map((candidate) => [candidate.id, candidate]));
      for (const [id, source] of sources) {
        if (wanted.has(id)) continue;
        source.disconnect();
        sources.delete(id);
      }
      for (const [id, candidate] of wanted) {
        if (sources.has(id)) continue;
        // A stream of the one track: a source node reads the first audio track of the stream it is given.
        const source = context.createMediaStreamSource(new MediaStream([candidate]));
        source.connect(destination as never);
        sources.set(id, source);
      }
    },
    close() {
      silence.stop();
      for (const source of sources.values()) source.disconnect();
      sources.clear();
      track.stop();
      void context.close().catch(() => undefined);
    },
  };
}
