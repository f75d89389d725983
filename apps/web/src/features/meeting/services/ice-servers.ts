// The ICE servers a meeting's connections are made with (GET /api/ice-servers/): STUN, TURN with a
// credential made for this user that expires (username `<unix expiry>:<user id>`, contract "Large
// classes and TURN"), and the relay-only policy when the server sets one. Asked ahead of a join (the
// lobby) and kept while fresh. While something watches them (a meeting's mesh, the SFU's link), they are
// asked again at 80% of the credential's remaining life and handed to every watcher: coturn checks a
// credential when an allocation is made, not while it lasts, so a link up keeps its relay, and what
// gathers candidates later (an ICE restart, a new peer) gets a credential that is still good, however
// long the class.
import { apiRoutes } from '@mooz/contract/api-routes';
import { call } from '../../../lib/api';

/** What a meeting's RTCPeerConnection is made with, and set to again when the servers are renewed. */
export interface IceConfiguration {
  iceServers: RTCIceServer[];
  iceTransportPolicy: RTCIceTransportPolicy;
}

/** Servers without an expiring credential are asked again after this long (the server's list may change). */
const ICE_SERVERS_KEPT_MS = 10 * 60_000;
/** A renewal comes at this share of the credential's remaining life. */
const RENEW_AT_SHARE = 0.8;
/**
 * No renewal sooner than this after the last: a client clock far ahead of the server's would otherwise
 * see every credential as expired and ask again at once, forever.
 * @public (these exports are read by the tests, which load this module after mocking its imports)
 */
export const RENEW_MIN_MS = 60_000;
/**
 * A renewal that failed (offline for a moment) is tried again this much later.
 * @public
 */
export const RENEW_RETRY_MS = 30_000;

/**
 * The earliest expiry (ms since the epoch) of the TURN credentials among `servers`, read from their usernames; null when none expires.
 * @public
 */
export function credentialExpiry(servers: readonly RTCIceServer[]): number | null {
  let earliest: number | null = null;
  for (const server of servers) {
    const match = /^(\d+):/.exec(server.username ?? '');
    if (!match) continue;
    const at = Number(match[1]) * 1000;
    if (earliest === null || at < earliest) earliest = at;
  }
  return earliest;
}

/**
 * When servers received at `receivedAt` are renewed: at 80% of their credential's remaining life; null when nothing in them expires.
 * @public
 */
export function renewalTime(servers: readonly RTCIceServer[], receivedAt: number): number | null {
  const expiry = credentialExpiry(servers);
  if (expiry === null) return null;
  return receivedAt + Math.max(RENEW_MIN_MS, (expiry - receivedAt) * RENEW_AT_SHARE);
}

interface Known {
  configuration: IceConfiguration;
  /** When they stop being handed out without asking again. */
  staleAt: number;
  /** When watchers get new ones; null: nothing in them expires. */
  renewAt: number | null;
}

let known: Known | null = null;
let asking: Promise<IceConfiguration> | null = null;
const watchers = new Set<(configuration: IceConfiguration) => void>();
let renewal: ReturnType<typeof setTimeout> | undefined;

function ask(): Promise<IceConfiguration> {
  asking ??= call(apiRoutes.meetings.iceServers)
    .then((answer) => {
      const configuration: IceConfiguration = { iceServers: answer.data, iceTransportPolicy: answer.ice_transport_policy ?? 'all' };
      const now = Date.now();
      const renewAt = renewalTime(configuration.iceServers, now);
      known = { configuration, staleAt: Math.min(now + ICE_SERVERS_KEPT_MS, renewAt ?? Infinity), renewAt };
      return configuration;
    })
    .finally(() => {
      asking = null;
    });
  return asking;
}

/** The ICE configuration, asked for when none fresh is known (a failed request is not kept). */
export function loadIceConfiguration(): Promise<IceConfiguration> {
  const fresh = knownIceConfiguration();
  return fresh ? Promise.resolve(fresh) : ask();
}

/** The ICE configuration if a fresh one is already here (asked while the lobby showed), so a join need not wait a turn. */
export function knownIceConfiguration(): IceConfiguration | undefined {
  return known && Date.now() < known.staleAt ? known.configuration : undefined;
}

/** Asks for the ICE servers ahead of a join (the lobby, while it is shown). */
export function prefetchIceServers(): void {
  loadIceConfiguration().catch(() => undefined);
}

/**
 * Calls `listener` with every renewed ICE configuration while it watches; the first watcher starts the
 * renewals, the last one to stop ends them. For whatever holds peer connections through a meeting:
 * each renewal goes into them with pc.setConfiguration({...pc.getConfiguration(), ...configuration}).
 */
export function watchIceConfiguration(listener: (configuration: IceConfiguration) => void): () => void {
  watchers.add(listener);
  if (watchers.size === 1) scheduleRenewal();
  return () => {
    watchers.delete(listener);
    if (watchers.size === 0) {
      clearTimeout(renewal);
      renewal = undefined;
    }
  };
}

function scheduleRenewal(delay?: number) {
  clearTimeout(renewal);
  renewal = undefined;
  if (watchers.size === 0) return;
  const at = known?.renewAt;
  if (delay === undefined && (at === null || at === undefined)) return;
  renewal = setTimeout(renew, delay ?? Math.max(0, at! - Date.now()));
}

function renew() {
  renewal = undefined;
  ask().then(
    (configuration) => {
      for (const listener of [...watchers]) listener(configuration);
      scheduleRenewal();
    },
    () => scheduleRenewal(RENEW_RETRY_MS),
  );
}
