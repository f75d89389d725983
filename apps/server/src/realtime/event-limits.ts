// How many signalling events a connection, and an account, may send: token buckets, so a mesh
// negotiating at once (a burst) passes and a flood does not.
import { realtimeLimits } from '@mooz/contract/realtime';

export function tokenBucket(burst: number, perSecond: number, now: () => number = Date.now): (at?: number) => boolean {
  const perMs = perSecond / 1000;
  let tokens = burst;
  let last = now();
  // `at`: the time when the caller has already read it (one clock read for both of an event's buckets).
  return (at = now()) => {
    tokens = Math.min(burst, tokens + (at - last) * perMs);
    last = at;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

/**
 * The limits of one connection: its own bucket, and its account's, which all of that account's
 * connections on this server process share, so ten sockets do not send ten times as much. Per process:
 * an account spread over several processes gets one account bucket on each (each process guards its
 * own share of the load, with no shared store on the hot path).
 */
export function eventLimits(scale: number) {
  const accounts = new Map<number, { allow: (at?: number) => boolean; connections: number }>();
  const refillMs = (realtimeLimits.userEventBurst / realtimeLimits.userEventsPerSecond) * 1000;
  return {
    /** The check for one new connection; `release` when it closes. */
    connect(userId: number) {
      const own = tokenBucket(realtimeLimits.eventBurst * scale, realtimeLimits.eventsPerSecond * scale);
      let account = accounts.get(userId);
      if (!account) {
        account = { allow: tokenBucket(realtimeLimits.userEventBurst * scale, realtimeLimits.userEventsPerSecond * scale), connections: 0 };
        accounts.set(userId, account);
      }
      account.connections += 1;
      const shared = account;
      let released = false;
      return {
        allow: () => {
          const at = Date.now();
          return own(at) && shared.allow(at);
        },
        release() {
          if (released) return;
          released = true;
          shared.connections -= 1;
          // Kept until it has filled up again, so closing every socket and reconnecting buys nothing.
          if (!shared.connections) {
            setTimeout(() => {
              if (!shared.connections && accounts.get(userId) === shared) accounts.delete(userId);
            }, refillMs).unref();
          }
        },
      };
    },
  };
}
