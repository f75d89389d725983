// One peer-to-peer link: an RTCPeerConnection negotiated with the perfect-negotiation pattern (either
// side may offer; the polite one yields on a collision), a chat data channel, and ICE restarts before
// giving up. It knows nothing of React or the socket: it reports through callbacks.
// It never waits for this tab's camera: a link is offered or answered with the tracks there are, and a
// track added later (the camera that was still starting, a screen share) is negotiated again on the
// transport already up, so the other side's video shows as soon as the link connects.
// It notes what its ICE gathering reached (services/ice-servers.ts hands it the servers and the
// policy), so a link that fails can tell whether this side's network let anything out.
import { limits } from '@mooz/contract/limits';
import { realtimeLimits, type SdpSignal } from '@mooz/contract/realtime';
import type { PeerStatus } from '../meeting-store';
import type { IceConfiguration } from './ice-servers';
import { joinMark } from './join-marks';

/** The reason a link gives when ICE found no way through after its restarts. */
export const iceFailure = 'ICE connection failed';

interface PeerLinkEvents {
  /** A description or candidate to hand to the other side through the signalling server. */
  signal(signal: SdpSignal): void;
  status(status: PeerStatus, reason?: string): void;
  track(event: RTCTrackEvent): void;
  /** A chat data channel message, as text. */
  message(text: string): void;
  /** The local description changed and the other side settles: bitrates can be (re)applied. */
  stable(): void;
}

export class PeerLink {
  readonly pc: RTCPeerConnection;
  channel: RTCDataChannel | null = null;
  /**
   * The side that answers does not offer anything before the first offer arrives: when both offer at
   * once before any transport exists, Chrome's rollback leaves the polite side without ICE candidates.
   */
  private started: boolean;
  private pendingTracks: [MediaStreamTrack, MediaStream][] = [];
  private makingOffer = false;
  private ignoreOffer = false;
  private settingRemoteAnswer = false;
  private restarts = 0;
  private recoveryTimer: ReturnType<typeof setTimeout> | undefined;
  private closingSeen = false;
  private incoming: Promise<void> = Promise.resolve();
  private senders = new Map<MediaStreamTrack, RTCRtpSender>();
  private configuration: IceConfiguration;
  /** The types of the local candidates gathered so far (host, srflx, relay), and whether a gathering has ended. */
  private readonly gathered = new Set<string>();
  private gatheringEnded = false;
  status: PeerStatus = 'signalling';

  constructor(
    configuration: IceConfiguration,
    /** The polite side rolls back its own offer when both offer at once. */
    readonly polite: boolean,
    /** This side was in the room first and makes the first offer. */
    initiator: boolean,
    private readonly events: PeerLinkEvents,
  ) {
    this.configuration = configuration;
    this.pc = new RTCPeerConnection({ iceServers: configuration.iceServers, iceTransportPolicy: configuration.iceTransportPolicy });
    this.started = initiator;
    if (initiator) {
      this.openChannel();
      // The first offer is made as soon as the code that made this link has added its tracks, rather
      // than when negotiationneeded comes, a task later: by then the page has often re-rendered for the
      // new peer first (a microtask queued now runs before that render). The event that follows finds
      // the offer under way and does nothing.
      queueMicrotask(() => void this.offer());
    }

    this.pc.onnegotiationneeded = () => void this.offer();
    this.pc.onicecandidate = ({ candidate }) => {
      if (candidate?.type) this.gathered.add(candidate.type);
      if (!candidate) this.gatheringEnded = true;
      this.events.signal({ candidate: candidate ? candidate.toJSON() : null });
    };
    this.pc.ontrack = (event) => {
      joinMark(`track-${event.track.kind}`);
      this.events.track(event);
    };
    this.pc.onsignalingstatechange = () => {
      if (this.pc.signalingState !== 'stable') return;
      this.events.stable();
      // Negotiated but not connected within the ICE completion timeout: restart ICE rather than wait.
      if (this.status === 'signalling' && !this.recoveryTimer) {
        this.recoveryTimer = setTimeout(() => {
          this.recoveryTimer = undefined;
          if (this.status === 'signalling') this.recover();
        }, limits.iceCompletionTimeoutMs);
      }
    };
    this.pc.oniceconnectionstatechange = () => this.onIceState();
  }

  /** Makes and sends an offer (perfect negotiation: the other side may be offering at the same time). */
  private async offer() {
    if (this.makingOffer || this.pc.signalingState !== 'stable') return;
    joinMark('offering');
    try {
      this.makingOffer = true;
      await this.pc.setLocalDescription();
      joinMark(`${this.pc.localDescription?.type}-sent`);
      if (this.pc.localDescription) this.events.signal({ description: this.pc.localDescription.toJSON() });
    } catch (error) {
      this.fail(reasonOf(error));
    } finally {
      this.makingOffer = false;
    }
  }

  private openChannel() {
    // Negotiated on both sides with the same id: no extra round trip, no "who creates it" question.
    const channel = this.pc.createDataChannel('chat', { negotiated: true, id: 0, ordered: true });
    channel.onmessage = (event) => {
      if (typeof event.data === 'string') this.events.message(event.data);
    };
    channel.onclose = () => this.finish();
    this.channel = channel;
  }

  /** Handles the other side's description or candidate, one at a time and in order. */
  receive(signal: SdpSignal): Promise<void> {
    this.incoming = this.incoming.then(() => this.apply(signal)).catch((error: unknown) => this.fail(reasonOf(error)));
    return this.incoming;
  }

  private async apply(signal: SdpSignal) {
    if (this.status === 'closed' || this.status === 'error') return;
    if ('description' in signal) {
      const description = signal.description as RTCSessionDescriptionInit;
      // An answer to an offer already answered (the offer was sent again after a blip, and both copies
      // were answered): nothing to apply.
      if (description.type === 'answer' && this.pc.signalingState === 'stable') return;
      const readyForOffer = !this.makingOffer && (this.pc.signalingState === 'stable' || this.settingRemoteAnswer);
      const collision = description.type === 'offer' && !readyForOffer;
      this.ignoreOffer = !this.polite && collision;
      if (this.ignoreOffer) return;
      joinMark(`${description.type}-in`);
      this.settingRemoteAnswer = description.type === 'answer';
      await this.pc.setRemoteDescription(description);
      this.settingRemoteAnswer = false;
      if (description.type === 'offer' && !this.started) {
        // The tracks we already have ride on the transceivers the offer made, so the first answer carries
        // them; one that comes later reuses its transceiver and is negotiated again.
        this.started = true;
        this.openChannel();
        for (const [track, stream] of this.pendingTracks.splice(0)) this.addTrack(track, stream);
      }
      if (description.type === 'offer') {
        await this.pc.setLocalDescription();
        joinMark('answer-sent');
        if (this.pc.localDescription) this.events.signal({ description: this.pc.localDescription.toJSON() });
      }
    } else if (signal.candidate) {
      try {
        await this.pc.addIceCandidate(signal.candidate as RTCIceCandidateInit);
      } catch (error) {
        // Candidates of an offer we ignored are expected to fail.
        if (!this.ignoreOffer) throw error;
      }
    }
  }

  addTrack(track: MediaStreamTrack, stream: MediaStream) {
    if (!this.started) {
      this.pendingTracks.push([track, stream]);
      return;
    }
    if (this.senders.has(track) || this.pc.signalingState === 'closed') return;
    this.senders.set(track, this.pc.addTrack(track, stream));
  }

  removeTrack(track: MediaStreamTrack) {
    this.pendingTracks = this.pendingTracks.filter(([pending]) => pending !== track);
    const sender = this.senders.get(track);
    this.senders.delete(track);
    if (sender && this.pc.signalingState !== 'closed') this.pc.removeTrack(sender);
  }

  /** Caps every outgoing video encoding at `kbps`. */
  async limitVideoBitrate(kbps: number) {
    const maxBitrate = kbps * 1000;
    await Promise.all(
      this.pc.getSenders().map(async (sender) => {
        if (sender.track?.kind !== 'video') return;
        const parameters = sender.getParameters();
        if (!parameters.encodings?.length) return; // not negotiated yet: applied again once stable
        if (parameters.encodings.every((encoding) => encoding.maxBitrate === maxBitrate)) return;
        for (const encoding of parameters.encodings) encoding.maxBitrate = maxBitrate;
        try {
          await sender.setParameters(parameters);
        } catch (error) {
          // A renegotiation in flight invalidates the parameters; the next stable state reapplies them.
          console.warn('Could not limit the video bitrate', error);
        }
      }),
    );
  }

  /** Queues `text` on the chat channel; false when it is not open or too much is still buffered. */
  send(text: string): boolean {
    if (this.channel?.readyState !== 'open') return false;
    if (this.channel.bufferedAmount + text.length > limits.dataChannelBackpressureBytes) return false;
    try {
      this.channel.send(text);
      return true;
    } catch {
      return false;
    }
  }

  /** Chrome can leave a channel "closing" forever; a second sighting counts as closed. */
  checkChannel() {
    if (this.channel?.readyState !== 'closing') return;
    if (this.closingSeen) this.finish();
    this.closingSeen = true;
  }

  private onIceState() {
    const state = this.pc.iceConnectionState;
    if (state === 'connected' || state === 'completed') {
      joinMark('ice-connected');
      clearTimeout(this.recoveryTimer);
      this.recoveryTimer = undefined;
      this.restarts = 0;
      this.setStatus('connected');
    } else if (state === 'failed') {
      this.recover();
    } else if (state === 'disconnected' && !this.recoveryTimer) {
      // Often a blip that heals by itself; restart only if it has not within the ICE timeout.
      this.recoveryTimer = setTimeout(() => {
        this.recoveryTimer = undefined;
        if (this.pc.iceConnectionState === 'disconnected') this.recover();
      }, limits.iceCompletionTimeoutMs);
    }
  }

  /**
   * Signalling is back after a blip and our place in the room was kept: what either side sent meanwhile
   * may be lost. A link that is not connected recovers now, with its full number of ICE restarts.
   */
  resume() {
    if (this.status === 'closed' || this.status === 'error') return;
    const state = this.pc.iceConnectionState;
    if (state === 'connected' || state === 'completed') return;
    this.restarts = 0;
    this.recover();
  }

  /**
   * New ICE servers (a renewed TURN credential) or policy: used from the next gathering on, an ICE
   * restart or a new candidate; what is connected stays connected on the allocations it has.
   */
  useConfiguration(configuration: IceConfiguration) {
    if (configuration === this.configuration || this.pc.signalingState === 'closed') return;
    this.configuration = configuration;
    try {
      this.pc.setConfiguration({ ...this.pc.getConfiguration(), iceServers: configuration.iceServers, iceTransportPolicy: configuration.iceTransportPolicy });
    } catch (error) {
      console.warn('Could not renew the ICE servers of a link', error);
    }
  }

  /**
   * Whether this side's network let nothing out (or the relay refused it): the servers it was given
   * include TURN (or only STUN) and a whole gathering brought no relay (or no server-reflexive)
   * candidate. False when it did reach out (a failure is then more likely the other side's); null when
   * no server was given to tell by, or no gathering has ended yet.
   */
  blockedHere(): boolean | null {
    const urls = this.configuration.iceServers.flatMap((server) => [server.urls].flat());
    const outward = urls.some((url) => /^turns?:/.test(url)) ? ['relay'] : urls.some((url) => /^stuns?:/.test(url)) ? ['srflx', 'relay'] : null;
    if (!outward) return null;
    if (outward.some((type) => this.gathered.has(type))) return false;
    return this.gatheringEnded ? true : null;
  }

  /** Restarts ICE a few times, each given the ICE completion timeout, before reporting the error. */
  private recover() {
    if (this.status === 'closed' || this.status === 'error') return;
    clearTimeout(this.recoveryTimer);
    if (this.restarts >= realtimeLimits.iceRestartAttempts) {
      this.fail(iceFailure);
      return;
    }
    this.restarts += 1;
    if (this.pc.signalingState === 'have-local-offer' && this.pc.localDescription) {
      // Our offer is still unanswered: it was probably lost (the other side was away from the signalling
      // server). Restarting ICE would wait for that answer forever; send the offer again instead.
      this.events.signal({ description: this.pc.localDescription.toJSON() });
    } else {
      this.pc.restartIce();
    }
    this.recoveryTimer = setTimeout(() => {
      this.recoveryTimer = undefined;
      const state = this.pc.iceConnectionState;
      if (state !== 'connected' && state !== 'completed') this.recover();
    }, limits.iceCompletionTimeoutMs);
  }

  private setStatus(status: PeerStatus, reason?: string) {
    if (this.status === status || this.status === 'closed' || this.status === 'error') return;
    this.status = status;
    this.events.status(status, reason);
  }

  private fail(reason: string) {
    this.setStatus('error', reason);
    this.close();
  }

  /** The other side went away (its channel closed): the link is finished. */
  private finish() {
    this.setStatus('closed');
    this.close();
  }

  close() {
    clearTimeout(this.recoveryTimer);
    if (this.channel) this.channel.onclose = null;
    if (this.status !== 'error') this.setStatus('closed');
    if (this.pc.signalingState !== 'closed') {
      this.channel?.close();
      this.pc.close();
    }
  }
}

export function reasonOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}
