// The mesh: one peer link to every other peer in the room, beside the peers the store shows. It exists
// so that the peers' life (linked, closed, removed, remembered for a goodbye), the bitrate budget and
// the closing-channel watch live in one object per meeting: enterRoom() makes a mesh and teardown closes
// it, so nothing of an earlier meeting (its timers, its links closing late) reaches the next one.
// It knows nothing of the socket: what it sends goes out through its hooks.
import i18n from 'i18next';
import { limits } from '@mooz/contract/limits';
import { messages } from '@mooz/contract/messages';
import { videoBitrateKbps, type SdpSignal, type SignalData, type StreamMetaData } from '@mooz/contract/realtime';
import { updatePeer, useMeetingStore, type Peer, type PeerStatus } from '../meeting-store';
import { meetingToast } from './meeting-toasts';
import { joinMark } from './join-marks';
import { watchIceConfiguration, type IceConfiguration } from './ice-servers';
import { iceFailure, PeerLink } from './peer-link';
import { localStreamIds, noteStreamIds, showRemoteTrack } from './stream-metadata';
import type { SfuLink } from './sfu-link';
import { departureText } from '../breakouts/breakouts-link';

const store = useMeetingStore;
const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options ?? {});
const nameOf = (name: string | undefined) => name?.trim() || t('meeting.anonymous');

/**
 * How long the name of a peer whose link finished is kept: on a slow network the link's close (and the
 * peer's removal 1 s later) can come before the server says the peer left, and it still deserves a goodbye.
 */
const DEPARTED_MEMORY_MS = 30_000;

interface MeshHooks {
  /** Hands `data` to peer `to` through the signalling server. */
  signal(to: string, data: SignalData): void;
  /** A chat data channel message from a peer. */
  message(peerId: string, text: string): void;
  /** A link failed for good: the client leaves the room, saying `why` when it is known (a network that lets no media through). */
  leave(why?: string): void;
}

export interface Mesh {
  /** True once the meeting this mesh belongs to is over: async work begun for it stops when it sees this. */
  readonly ended: boolean;
  /** The ICE servers are known: links can be made, closing channels are watched and renewed servers go into every link from now on. */
  start(configuration: IceConfiguration): void;
  /** Links to a peer (this side offers first when `initiator`) and shows it. */
  link(peerId: string, userName: string, initiator: boolean): void;
  /** Whether a link to the peer may be made: none yet, or only a finished one, which is removed now. */
  replaceable(peerId: string): boolean;
  /** The peer's description or candidate, with the stream ids it sent along. */
  receive(peerId: string, signal: SdpSignal, meta: Partial<StreamMetaData> | undefined): void;
  /** The server says the peer left: goodbye toast, and the peer is removed. */
  peerLeft(peerId: string): void;
  /** Removes every peer: their links belong to a membership of the room that is gone. */
  removeAll(): void;
  /** Signalling is back with our place kept (a blip): links that are not connected recover now. */
  resume(): void;
  /** Sends a local track to every peer whose link is up or coming up. */
  addTrack(track: MediaStreamTrack, stream: MediaStream): void;
  removeTrack(track: MediaStreamTrack): void;
  /** The video bitrate budget (limits.videoBitrateBudgetKbps shared by the connections, never under limits.videoBitrateMinKbps) on every video sender. */
  applyBitrates(): void;
  /** The links whose peer is connected: where a chat goes. */
  connectedLinks(): PeerLink[];
  /** Every connection media comes in on now (the links', the SFU's): where the speakers are heard. */
  receivingConnections(): RTCPeerConnection[];
  /** Closes every link quietly and stops every timer; the mesh is finished. */
  close(): void;
  /** The ICE configuration links are made with now (renewed TURN credentials included). */
  iceConfiguration(): IceConfiguration;
  /**
   * Large classes: from now on our media goes through the SFU's link (signalling.ts makes it). Peers
   * keep their tiles; their mesh links are dropped quietly as their SFU streams arrive.
   */
  useSfu(link: SfuLink): void;
  /** Someone in an SFU room, known by name: shown without a link of ours. */
  sfuPeer(peerId: string, userName: string): void;
  /** A peer's camera or screen as the SFU delivers it now (null: gone). */
  sfuStream(peerId: string, source: 'camera' | 'screen', stream: MediaStream | null): void;
  /** Whether a peer's own media reaches the SFU (the hosts' People list marks those without). */
  sfuMedia(peerId: string, connected: boolean): void;
  /** Our link to the SFU failed for good: leave, saying why. */
  sfuFailed(): void;
}

/** A peer as first shown: no streams yet, its link (if any) still signalling. */
const newPeer = (peerId: string, userName: string, initiator: boolean): Peer => ({
  peerId,
  userName: nameOf(userName),
  status: 'signalling',
  initiator,
  userStream: null,
  screenStream: null,
  screenStreamId: null,
  userStreamId: null,
  version: 0,
});

const live = (status: PeerStatus) => status === 'signalling' || status === 'connected';

export function createMesh(hooks: MeshHooks): Mesh {
  const links = new Map<string, PeerLink>();
  let configuration: IceConfiguration = { iceServers: [], iceTransportPolicy: 'all' };
  let stopWatchingIce: (() => void) | undefined;
  let ended = false;
  let channelCheck: ReturnType<typeof setInterval> | undefined;
  const destroyTimers = new Map<string, ReturnType<typeof setTimeout>>();
  const departedNames = new Map<string, string>();
  let sfu: SfuLink | null = null;

  /** The links of the store's peers whose status passes, in the store's order. */
  function linksWhere(wanted: (status: PeerStatus) => boolean): PeerLink[] {
    const found: PeerLink[] = [];
    for (const peer of Object.values(store.getState().peers)) {
      const link = links.get(peer.peerId);
      if (link && wanted(peer.status)) found.push(link);
    }
    return found;
  }

  function applyBitrates() {
    const targets = linksWhere(live);
    const kbps = videoBitrateKbps(targets.length);
    for (const link of targets) void link.limitVideoBitrate(kbps);
  }

  function link(peerId: string, userName: string, initiator: boolean) {
    joinMark(initiator ? 'link-offering' : 'link-answering');
    const { peerId: ownId, localStream, screenStream } = store.getState();
    const created = new PeerLink(configuration, ownId < peerId, initiator, {
      signal: (sdpSignal: SdpSignal) => hooks.signal(peerId, { sdpSignal, metaData: localStreamIds() }),
      status: (status, reason) => onStatus(peerId, created, status, reason),
      track: (event) => showRemoteTrack(peerId, event),
      message: (text) => hooks.message(peerId, text),
      stable: () => applyBitrates(),
    });
    for (const track of localStream?.getTracks() ?? []) created.addTrack(track, localStream!);
    for (const track of screenStream?.getTracks() ?? []) created.addTrack(track, screenStream!);
    const peer = newPeer(peerId, userName, initiator);
    links.set(peerId, created);
    store.setState((state) => ({ peers: { ...state.peers, [peerId]: peer } }));
    applyBitrates();
  }

  /** Removes a peer now: its link closed, its streams stopped, gone from the list. */
  function destroy(peerId: string) {
    clearTimeout(destroyTimers.get(peerId));
    destroyTimers.delete(peerId);
    const peer = store.getState().peers[peerId];
    const peerLink = links.get(peerId);
    // On the SFU a peer has no link of ours.
    if (!peer || (!peerLink && !sfu)) return;
    // Out of the map before it closes: its last word ("closed") is then not heard, so it gets no toast
    // and sets no removal timer, which would fire by peer id and take the peer's next link (one back at once).
    links.delete(peerId);
    peerLink?.close();
    departedNames.set(peerId, peer.userName);
    setTimeout(() => {
      if (departedNames.get(peerId) === peer.userName) departedNames.delete(peerId);
    }, DEPARTED_MEMORY_MS);
    for (const stream of [peer.userStream, peer.screenStream]) stream?.getTracks().forEach((track) => track.stop());
    store.setState((state) => {
      const { [peerId]: _gone, ...rest } = state.peers;
      return { peers: rest };
    });
    applyBitrates();
  }

  function onStatus(peerId: string, from: PeerLink, status: PeerStatus, reason?: string) {
    // A link of a closed mesh, or one already replaced, has nothing more to say.
    const peer = store.getState().peers[peerId];
    if (ended || !peer || links.get(peerId) !== from) return;
    // Moving to the SFU: the mesh links end one by one as both sides drop them; the peer stays.
    if (sfu && status !== 'connected' && status !== 'signalling') {
      links.delete(peerId);
      from.close();
      return;
    }
    updatePeer(peerId, { status });
    if (status === 'connected') {
      meetingToast.short(t('meeting.toast.peerConnected', { name: peer.userName }));
      applyBitrates();
    } else if (status === 'closed') {
      meetingToast.short(t('meeting.toast.peerClosed', { name: peer.userName }));
      applyBitrates();
      // The tile shows "closed" for a moment before the peer goes.
      destroyTimers.set(
        peerId,
        setTimeout(() => {
          // Only the link that closed: a newer one for the same peer is not this timer's to remove.
          if (links.get(peerId) === from) destroy(peerId);
        }, limits.peerDestroyDelayMs),
      );
    } else if (status === 'error') {
      if (reason === iceFailure) {
        // No way through. When this side's own network let nothing out (or the relay refused it), or
        // there is nothing to tell by and no other link is up, the failure is ours: leave, saying why
        // and what to try. Otherwise the peer's network is the likelier cause: they stay in the list,
        // marked as without media, and we stay in the meeting.
        const ours = from.blockedHere() ?? linksWhere((linkStatus) => linkStatus === 'connected').length === 0;
        if (ours) {
          meetingToast.error(messages.peerConnectionError, messages.mediaBlocked);
          hooks.leave(messages.mediaBlocked);
        } else {
          meetingToast.medium(t('meeting.toast.peerNoMedia', { name: peer.userName }));
          applyBitrates();
        }
        return;
      }
      meetingToast.error(messages.peerConnectionError, reason);
      hooks.leave();
    }
  }

  return {
    get ended() {
      return ended;
    },
    start(given) {
      configuration = given;
      stopWatchingIce = watchIceConfiguration((renewed) => {
        configuration = renewed;
        for (const peerLink of links.values()) peerLink.useConfiguration(renewed);
        sfu?.setIceServers(renewed);
      });
      channelCheck = setInterval(() => {
        for (const peerLink of links.values()) peerLink.checkChannel();
      }, limits.channelClosingCheckMs);
    },
    link,
    replaceable(peerId) {
      const existing = store.getState().peers[peerId];
      if (existing && live(existing.status)) return false;
      if (existing) destroy(peerId);
      return true;
    },
    receive(peerId, signal, meta) {
      const peerLink = links.get(peerId);
      if (!peerLink) return;
      noteStreamIds(peerId, meta);
      void peerLink.receive(signal);
    },
    peerLeft(peerId) {
      const peer = store.getState().peers[peerId];
      const name = peer?.userName ?? departedNames.get(peerId);
      departedNames.delete(peerId);
      if (name === undefined) return;
      // Gone before our link to them ever connected, while our own gathering reached no relay: no one
      // else would get through either (the other side, often on the same relay, gave up first).
      const unreached = peer?.status === 'signalling' && links.get(peerId)?.blockedHere() === true;
      meetingToast.medium(departureText(nameOf(name)));
      if (peer) destroy(peerId);
      departedNames.delete(peerId);
      if (unreached) {
        meetingToast.error(messages.peerConnectionError, messages.mediaBlocked);
        hooks.leave(messages.mediaBlocked);
      }
    },
    removeAll() {
      for (const peerId of Object.keys(store.getState().peers)) destroy(peerId);
    },
    resume() {
      for (const peerLink of links.values()) peerLink.resume();
    },
    addTrack(track, stream) {
      for (const peerLink of linksWhere(live)) peerLink.addTrack(track, stream);
      void sfu?.setTrack(track, stream, stream === store.getState().screenStream);
    },
    removeTrack(track) {
      for (const peerLink of links.values()) peerLink.removeTrack(track);
      void sfu?.removeTrack(track);
    },
    applyBitrates,
    connectedLinks: () => linksWhere((status) => status === 'connected'),
    receivingConnections: () => [...[...links.values()].map((peerLink) => peerLink.pc), ...(sfu?.connections() ?? [])],
    iceConfiguration: () => configuration,
    useSfu(link) {
      sfu = link;
      // A link still negotiating never finishes (its signals are dropped on the SFU): it goes now, with
      // the relay allocations it holds. Connected ones stay until the SFU brings that peer (sfuStream).
      for (const [peerId, peerLink] of [...links]) {
        if (store.getState().peers[peerId]?.status === 'connected') continue;
        links.delete(peerId);
        peerLink.close();
      }
    },
    sfuPeer(peerId, userName) {
      const existing = store.getState().peers[peerId];
      if (existing) {
        if (userName.trim()) updatePeer(peerId, { userName: nameOf(userName) });
        return;
      }
      const peer = newPeer(peerId, userName, false);
      store.setState((state) => ({ peers: { ...state.peers, [peerId]: peer } }));
    },
    sfuStream(peerId, source, stream) {
      if (ended) return;
      if (!store.getState().peers[peerId]) {
        // A stream of someone gone that ends now: nobody to show.
        if (!stream) return;
        this.sfuPeer(peerId, departedNames.get(peerId) ?? '');
      }
      // The SFU carries this peer now: its mesh link, if any, goes quietly (no toast, the tile stays).
      const meshLink = links.get(peerId);
      if (meshLink && stream) {
        links.delete(peerId);
        meshLink.close();
      }
      // A received track starts muted until its first packets: the tiles look again when that changes.
      const bump = () => updatePeer(peerId, (peer) => ({ version: peer.version + 1 }));
      for (const track of stream?.getTracks() ?? []) {
        track.onmute = bump;
        track.onunmute = bump;
      }
      updatePeer(peerId, (peer) =>
        source === 'camera'
          ? { userStream: stream, status: stream ? 'connected' : peer.status, version: peer.version + 1 }
          : { screenStream: stream, version: peer.version + 1 },
      );
    },
    sfuMedia(peerId, connected) {
      if (ended || !store.getState().peers[peerId]) return;
      updatePeer(peerId, { status: connected ? 'connected' : 'error' });
    },
    sfuFailed() {
      if (ended) return;
      meetingToast.error(messages.peerConnectionError, messages.mediaBlocked);
      hooks.leave(messages.mediaBlocked);
    },
    close() {
      ended = true;
      sfu = null;
      stopWatchingIce?.();
      clearInterval(channelCheck);
      for (const timer of destroyTimers.values()) clearTimeout(timer);
      destroyTimers.clear();
      departedNames.clear();
      // Ended first: what the links say as they close is not heard (no toast, no timer).
      for (const peerLink of links.values()) peerLink.close();
      links.clear();
    },
  };
}
