// Login attempts slow down rather than lock out (OWASP's authentication guidance). Only failures count
// (a wrong password, an unknown email); a success takes its attempt back and forgets the failures of
// its email from its address. They count per email-and-address pair, where a few in a row go through
// and then each further one waits longer, and per address across emails. A stranger's wrong
// passwords from elsewhere never keep the owner out. The numbers are rateLimits' login* in limits.ts.
import { loginWaitMaxSeconds, rateLimits } from '@mooz/contract/limits';
import { fillMessage, messages } from '@mooz/contract/messages';
import { tooManyRequests } from '../../http/errors';
import type { RateLimiter } from '../../infrastructure/rate-limiter';

/** The 429 of a login that must wait, with Retry-After and a message that names the wait. */
function loginWait(seconds: number) {
  const whole = Math.max(1, Math.ceil(seconds));
  const message =
    whole <= 60
      ? fillMessage(messages.tooManyFailuresSeconds, { seconds: whole })
      : fillMessage(messages.tooManyFailuresMinutes, { minutes: Math.ceil(whole / 60) });
  return tooManyRequests(whole, message);
}

/** The wait an attempt opens when it is `beyond` attempts past the free ones (0 for the last free one). */
function backoffSeconds(beyond: number) {
  const [, firstWaitSeconds] = rateLimits.loginWaitPerPair;
  return Math.min(firstWaitSeconds * 2 ** Math.min(beyond, 20), loginWaitMaxSeconds);
}

/** The key of an email-and-address pair under loginFailuresPerPair and loginWaitPerPair. */
export const pairKey = (email: string, ip: string) => `${email.toLowerCase()} ${ip}`;

export function createLoginLimits(limiter: RateLimiter) {
  return {
    /**
     * Before the password is checked. The attempt counts as a failure until it proves otherwise, so
     * attempts sent in parallel cannot all slip in before the first failure is counted. Throws 429
     * while the address is over its limit or the pair must still wait.
     */
    async admit(email: string, ip: string) {
      const ipWait = await limiter.hit('loginFailuresPerIp', ip);
      if (ipWait > 0) throw loginWait(ipWait);
      const pair = pairKey(email, ip);
      const beyond = await limiter.count('loginFailuresPerPair', pair);
      if (beyond < 0) return;
      // From the last free failure on, each attempt opens a wait before the next one is checked.
      const wait = await limiter.hit('loginWaitPerPair', pair, backoffSeconds(beyond));
      if (wait > 0) {
        // Refused unchecked: not a failure, so it neither counts nor makes the next wait longer.
        await Promise.all([limiter.refund('loginFailuresPerPair', pair), limiter.refund('loginFailuresPerIp', ip)]);
        throw loginWait(wait);
      }
    },

    /** The password was right: the attempt was no failure, and the pair's failures are forgotten. */
    async succeeded(email: string, ip: string) {
      await Promise.all([limiter.refund('loginFailuresPerIp', ip), this.forget(email, ip)]);
    },

    /** Forgets the failures of `email` from `ip` (a success, or a password reset from there). */
    async forget(email: string, ip: string) {
      const pair = pairKey(email, ip);
      await Promise.all([limiter.reset('loginFailuresPerPair', pair), limiter.reset('loginWaitPerPair', pair)]);
    },
  };
}
