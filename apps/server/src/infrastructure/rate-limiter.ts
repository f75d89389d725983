// Rate limits of the accounts area, by rate-limiter-flexible: fixed windows in process memory for one
// server, in Redis when several share the work. While Redis is unreachable each process falls back to
// its own in-memory counters (the library's insurance limiter): limits get looser by the number of
// processes for the length of the outage, never switched off, and logins keep working.
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { rateLimits } from '@mooz/contract/limits';

export type RateLimitName = keyof typeof rateLimits;

export interface RateLimiter {
  /**
   * Counts one attempt on `key` under the named limit; returns 0 when allowed, else the seconds to wait.
   * `windowSeconds` replaces the limit's window when this attempt opens one.
   */
  hit(name: RateLimitName, key: string, windowSeconds?: number): Promise<number>;
  /**
   * Counts one attempt on `key` and never refuses; returns how far the window now is past the
   * limit's allowance: below 0 while within it, 0 at the last attempt it allows, 1 one beyond, …
   */
  count(name: RateLimitName, key: string): Promise<number>;
  /** Takes back one attempt counted on `key` (one that turned out not to count). */
  refund(name: RateLimitName, key: string): Promise<void>;
  /** Forgets the attempts counted on `key` under the named limit. */
  reset(name: RateLimitName, key: string): Promise<void>;
}

type Options = { points: number; duration: number; keyPrefix: string };

function limiterSet(scale: number, make: (options: Options) => RateLimiterAbstract): RateLimiter {
  const limiters = new Map<RateLimitName, RateLimiterAbstract>();
  const limiterFor = (name: RateLimitName) => {
    let limiter = limiters.get(name);
    if (!limiter) {
      const [max, windowSeconds] = rateLimits[name];
      limiter = make({ points: Math.ceil(max * scale), duration: windowSeconds, keyPrefix: `rl:${name}` });
      limiters.set(name, limiter);
    }
    return limiter;
  };
  return {
    async hit(name, key, windowSeconds) {
      try {
        await limiterFor(name).consume(key, 1, windowSeconds === undefined ? {} : { customDuration: windowSeconds });
        return 0;
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return Math.max(refusal.msBeforeNext, 1000) / 1000;
        throw refusal;
      }
    },
    async count(name, key) {
      const limiter = limiterFor(name);
      return (await limiter.penalty(key)).consumedPoints - limiter.points;
    },
    async refund(name, key) {
      await limiterFor(name).reward(key);
    },
    async reset(name, key) {
      await limiterFor(name).delete(key);
    },
  };
}

/** `scale` raises every limit (benchmarks); it never switches one off. */
export function memoryRateLimiter(scale = 1): RateLimiter {
  return limiterSet(scale, (options) => new RateLimiterMemory(options));
}

/**
 * Counters shared through Redis. `redis` should not queue commands while disconnected
 * (`enableOfflineQueue: false`), so a request during an outage falls back at once instead of waiting.
 */
export function redisRateLimiter(redis: Redis, prefix: string, scale = 1): RateLimiter {
  return limiterSet(
    scale,
    (options) =>
      new RateLimiterRedis({
        ...options,
        storeClient: redis,
        keyPrefix: `${prefix}${options.keyPrefix}`,
        insuranceLimiter: new RateLimiterMemory(options),
      }),
  );
}
