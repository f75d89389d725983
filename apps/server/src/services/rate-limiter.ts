// Fixed-window counters for rate limits, in memory for one process or in Redis when several share
// the work. hit() counts an attempt and says how long to wait when the limit is passed.
import type { Redis } from 'ioredis';

export interface RateLimiter {
  /** Counts one attempt on `key`; returns 0 when allowed, else the seconds until the window ends. */
  hit(key: string, max: number, windowSeconds: number): Promise<number>;
  reset(key: string): Promise<void>;
}

export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; endsAt: number }>();
  return {
    async hit(key, max, windowSeconds) {
      const t = now();
      let w = windows.get(key);
      if (!w || w.endsAt <= t) {
        // Drop expired windows now and then so the map does not grow without bound.
        if (windows.size > 10_000) for (const [k, v] of windows) if (v.endsAt <= t) windows.delete(k);
        w = { count: 0, endsAt: t + windowSeconds * 1000 };
        windows.set(key, w);
      }
      w.count += 1;
      return w.count > max ? (w.endsAt - t) / 1000 : 0;
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}

export function redisRateLimiter(redis: Redis, prefix: string): RateLimiter {
  return {
    async hit(key, max, windowSeconds) {
      const k = `${prefix}rl:${key}`;
      const [[, count], [, ttl]] = (await redis.multi().incr(k).pttl(k).exec()) as [[null, number], [null, number]];
      if (ttl < 0) await redis.pexpire(k, windowSeconds * 1000);
      return count > max ? Math.max(ttl, 1000) / 1000 : 0;
    },
    async reset(key) {
      await redis.del(`${prefix}rl:${key}`);
    },
  };
}
