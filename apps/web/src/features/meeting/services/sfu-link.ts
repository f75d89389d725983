// This tab's media through the SFU (a large class): two peer connections whatever the room's size,
// one that sends our camera (three simulcast layers), microphone and screen once, and one that
// receives everyone else's streams. Janus's offers and our answers go over the signalling socket; the
// server says whose each received stream is, and the link hands them to the meeting per peer and source.
import { limits } from '@mooz/contract/limits';
import type { SfuStream, VideoLayer } from '@mooz/contract/realtime';
import type { MeetingSocket } from './handshake';

type Source = SfuStream['source'];
type Jsep = { type: 'offer' | 'answer'; sdp: string };

interface SfuLinkHooks {
  /** The ICE servers and policy to use now (fresh TURN credentials). */
  rtcConfig(): RTCConfiguration;
  /** A peer's camera (with its microphone) or screen as received now; null when it has none any more. */
  stream(peerId: string, source: Source, stream: MediaStream | null): void;
  /** Our connections to the SFU: up, or failed for good. */
  status(state: 'connected' | 'failed'): void;
}

/**
 * The camera's simulcast layers, lowest first (Janus forwards one of them to each receiver): a quarter
 * and a half of the resolution for thumbnails, the full one for the speaker or a pinned tile. Their
 * bitrates add up to the specification's video budget.
 */
const budget = limits.videoBitrateBudgetKbps * 1000;
const CAMERA_LAYERS: RTCRtpEncodingParameters[] = [
  { rid: 'l', scaleResolutionDownBy: 4, maxBitrate: Math.round(budget * 0.1) },
  { rid: 'm', scaleResolutionDownBy: 2, maxBitrate: Math.round(budget * 0.25) },
  { rid: 'h', scaleResolutionDownBy: 1, maxBitrate: Math.round(budget * 0.65) },
];

export class SfuLink {
  private readonly publisher: RTCPeerConnection;
  private subscriber: RTCPeerConnection | null = null;
  private readonly audio: RTCRtpTransceiver;
  private readonly camera: RTCRtpTransceiver;
  private screen: RTCRtpTransceiver | null = null;
  /** Publishing, one negotiation at a time. */
  private publishing: Promise<void> = Promise.resolve();
  /** Our candidates wait until Janus has our offer. */
  private publisherCandidates: (RTCIceCandidateInit | null)[] | null = [];
  /** What we show per `peerId:source`, so a later offer adds and removes tracks, not streams. */
  private readonly received = new Map<string, MediaStream>();
  private connected = { publisher: false, subscriber: true };
  private closed = false;

  constructor(
    private readonly socket: MeetingSocket,
    readonly roomId: string,
    readonly epoch: number,
    private readonly hooks: SfuLinkHooks,
  ) {
    this.publisher = new RTCPeerConnection(hooks.rtcConfig());
    this.audio = this.publisher.addTransceiver('audio', { direction: 'sendonly' });
    this.camera = this.publisher.addTransceiver('video', { direction: 'sendonly', sendEncodings: CAMERA_LAYERS });
    this.publisher.onicecandidate = ({ candidate }) => {
      const init = candidate ? candidate.toJSON() : null;
      if (this.publisherCandidates) this.publisherCandidates.push(init);
      else this.trickle('publisher', init);
    };
    this.watch(this.publisher, 'publisher');
  }

  /** Sends what we have (camera, microphone, screen) and starts receiving. */
  start(localStream: MediaStream | null, screenStream: MediaStream | null) {
    for (const track of localStream?.getTracks() ?? []) void this.setTrack(track, localStream!, false, false);
    for (const track of screenStream?.getTracks() ?? []) void this.setTrack(track, screenStream!, true, false);
    this.renegotiate();
  }

  /**
   * A local track to send (a camera turned on, a screen shared). The camera and microphone take their
   * places at once; a screen share is offered to Janus (`negotiate`), so the others get its tile.
   */
  async setTrack(track: MediaStreamTrack, stream: MediaStream, isScreen: boolean, negotiate = true) {
    if (this.closed) return;
    if (isScreen) {
      // A shared tab's sound is not sent on the SFU: the microphone has the one audio place.
      if (track.kind !== 'video') return;
      if (!this.screen) {
        this.screen = this.publisher.addTransceiver(track, { direction: 'sendonly', streams: [stream] });
      } else {
        this.screen.direction = 'sendonly';
        await this.screen.sender.replaceTrack(track);
      }
      if (negotiate) this.renegotiate();
      return;
    }
    await (track.kind === 'audio' ? this.audio : this.camera).sender.replaceTrack(track);
  }

  /** A local track no longer sent; a screen share's end is negotiated so the others drop its tile. */
  async removeTrack(track: MediaStreamTrack) {
    if (this.closed) return;
    for (const transceiver of [this.audio, this.camera]) {
      if (transceiver.sender.track === track) await transceiver.sender.replaceTrack(null);
    }
    if (this.screen?.sender.track === track) {
      await this.screen.sender.replaceTrack(null);
      this.screen.direction = 'inactive';
      this.renegotiate();
    }
  }

  /** Offers what we send now (again after a screen share starts or stops). */
  renegotiate() {
    this.publishing = this.publishing.then(() => this.publish()).catch((error: unknown) => this.fail(error));
  }

  /** Janus's offer of the others' streams: answered, and the streams handed out by peer and source. */
  async receive(jsep: Jsep, streams: SfuStream[]) {
    if (this.closed) return;
    if (!this.subscriber) {
      this.subscriber = new RTCPeerConnection(this.hooks.rtcConfig());
      this.connected.subscriber = false;
      this.subscriber.onicecandidate = ({ candidate }) => this.trickle('subscriber', candidate ? candidate.toJSON() : null);
      this.watch(this.subscriber, 'subscriber');
    }
    const subscriber = this.subscriber;
    await subscriber.setRemoteDescription(jsep);
    const answer = await subscriber.createAnswer();
    await subscriber.setLocalDescription(answer);
    if (this.closed) return;
    this.socket.emit('request:sfu_answer', { roomId: this.roomId, epoch: this.epoch, jsep: { type: 'answer', sdp: answer.sdp ?? '' } });
    this.share(streams);
  }

  /** Which quality of whose video to receive: high for the speaker or a pinned tile, low for thumbnails, off when not shown. */
  chooseLayers(layers: { peerId: string; source: Source; layer: VideoLayer }[]) {
    if (!this.closed && layers.length) this.socket.emit('request:sfu_layers', { roomId: this.roomId, epoch: this.epoch, layers });
  }

  /** The connections in use (tests, stats). */
  connections(): RTCPeerConnection[] {
    return this.subscriber ? [this.publisher, this.subscriber] : [this.publisher];
  }

  /** New ICE servers (fresh TURN credentials): used from the next gathering on. */
  setIceServers(config: RTCConfiguration) {
    for (const pc of this.connections()) pc.setConfiguration({ ...pc.getConfiguration(), iceServers: config.iceServers });
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    for (const pc of this.connections()) pc.close();
    for (const key of this.received.keys()) {
      const [peerId, source] = key.split('\n') as [string, Source];
      this.hooks.stream(peerId, source, null);
    }
    this.received.clear();
  }

  private async publish() {
    if (this.closed) return;
    const offer = await this.publisher.createOffer();
    await this.publisher.setLocalDescription(offer);
    const screenMid = this.screen && this.screen.direction !== 'inactive' ? this.screen.mid : null;
    const res = await this.socket
      .timeout(15_000)
      .emitWithAck('request:sfu_publish', { roomId: this.roomId, epoch: this.epoch, jsep: { type: 'offer', sdp: offer.sdp ?? '' }, screenMid });
    if (this.closed) return;
    if ('error' in res) throw new Error(res.error);
    await this.publisher.setRemoteDescription(res.jsep);
    const waiting = this.publisherCandidates;
    this.publisherCandidates = null;
    for (const candidate of waiting ?? []) this.trickle('publisher', candidate);
  }

  private trickle(target: 'publisher' | 'subscriber', candidate: RTCIceCandidateInit | null) {
    if (this.closed) return;
    const wire = candidate ? { candidate: candidate.candidate ?? '', sdpMid: candidate.sdpMid, sdpMLineIndex: candidate.sdpMLineIndex } : null;
    this.socket.emit('request:sfu_trickle', { roomId: this.roomId, epoch: this.epoch, target, candidate: wire });
  }

  /** Puts each received track in its peer's stream of its source, and takes gone ones out. */
  private share(streams: SfuStream[]) {
    const transceivers = new Map(this.subscriber!.getTransceivers().map((t) => [t.mid, t]));
    const wanted = new Map<string, MediaStreamTrack[]>();
    for (const { mid, peerId, source } of streams) {
      const track = transceivers.get(mid)?.receiver.track;
      if (!track) continue;
      const key = `${peerId}\n${source}`;
      wanted.set(key, [...(wanted.get(key) ?? []), track]);
    }
    for (const [key, tracks] of wanted) {
      const [peerId, source] = key.split('\n') as [string, Source];
      let stream = this.received.get(key);
      const fresh = !stream;
      stream ??= new MediaStream();
      this.received.set(key, stream);
      let changed = fresh;
      for (const old of stream.getTracks()) {
        if (tracks.includes(old)) continue;
        stream.removeTrack(old);
        changed = true;
      }
      for (const track of tracks) {
        if (stream.getTracks().includes(track)) continue;
        stream.addTrack(track);
        changed = true;
      }
      if (changed) this.hooks.stream(peerId, source, stream);
    }
    for (const key of [...this.received.keys()]) {
      if (wanted.has(key)) continue;
      this.received.delete(key);
      const [peerId, source] = key.split('\n') as [string, Source];
      this.hooks.stream(peerId, source, null);
    }
  }

  private watch(pc: RTCPeerConnection, which: 'publisher' | 'subscriber') {
    pc.onconnectionstatechange = () => {
      if (this.closed) return;
      if (pc.connectionState === 'connected') {
        this.connected[which] = true;
        if (this.connected.publisher && this.connected.subscriber) this.hooks.status('connected');
      } else if (pc.connectionState === 'failed') {
        this.fail(new Error(`SFU ${which} connection failed`));
      }
    };
  }

  private fail(error: unknown) {
    if (this.closed) return;
    console.warn('SFU link:', error);
    this.hooks.status('failed');
  }
}
