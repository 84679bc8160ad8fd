// Posts per visitor per window. The counting itself is a `WindowCounter`: in memory by default
// (per process or per serverless isolate), or a store every instance of the relay shares (Redis /
// Valkey, a Workers Durable Object), so that replicas give a visitor one allowance, not one each.

/** Counts events per key in a sliding window; the seam every store of the relay implements. */
export interface WindowCounter {
  /**
   * Counts one event for `key` unless `limit` events already fall within the last `windowMs`;
   * then answers the milliseconds until the oldest of them leaves the window, and counts nothing.
   */
  take(key: string, limit: number, windowMs: number, now: number): Promise<number | undefined>;
}

/**
 * One key's event times after counting one more at `now` (or, over the limit, the milliseconds
 * until the oldest leaves the window, counting nothing): what every in-process store keeps.
 */
export function slideWindow(
  previous: readonly number[],
  limit: number,
  windowMs: number,
  now: number,
): { times: number[]; waitMs?: number } {
  const times = previous.filter((time) => now - time < windowMs);
  if (times.length >= limit) return { times, waitMs: (times[0] as number) + windowMs - now };
  times.push(now);
  return { times };
}

export interface MemoryCounter extends WindowCounter {
  /** How many keys are remembered. */
  size(): number;
}

/**
 * A sliding log of each key's event times, in a Map kept in least-recently-seen order so the
 * number of keys remembered stays bounded: past `maxKeys` the least recently seen is forgotten.
 */
export function createMemoryCounter(maxKeys = 10_000): MemoryCounter {
  const keys = new Map<string, number[]>();
  return {
    async take(key, limit, windowMs, now) {
      const { times, waitMs } = slideWindow(keys.get(key) ?? [], limit, windowMs, now);
      keys.delete(key);
      keys.set(key, times);
      if (waitMs !== undefined) return waitMs;
      for (const oldest of keys.keys()) {
        if (keys.size <= maxKeys) break;
        keys.delete(oldest);
      }
      return undefined;
    },
    size: () => keys.size,
  };
}

export interface RateLimiter {
  /** Counts one post from `key`; answers the seconds to wait instead when it is over the limit. */
  take(key: string, now: number): Promise<number | undefined>;
}

export interface RateLimitOptions {
  limit: number;
  windowMs: number;
  /** Where the posts are counted (default: a counter in memory of its own). */
  counter?: WindowCounter;
  /** Keeps this limit's keys apart from other limits counted in the same store, e.g. `chat`. */
  scope: string;
}

export function createRateLimiter({
  limit,
  windowMs,
  counter = createMemoryCounter(),
  scope,
}: RateLimitOptions): RateLimiter {
  return {
    async take(key, now) {
      const waitMs = await counter.take(`${scope}:${key}`, limit, windowMs, now);
      // A refused post is not counted: waiting Retry-After seconds is then always enough.
      return waitMs === undefined ? undefined : Math.max(1, Math.ceil(waitMs / 1000));
    },
  };
}
