// Posts per visitor per window, counted in memory (per process or per serverless isolate): a
// sliding log of each visitor's post times, in a Map kept in least-recently-seen order so the
// number of visitors remembered stays bounded.

export interface RateLimiter {
  /** Counts one post from `key`; answers the seconds to wait instead when it is over the limit. */
  take(key: string, now: number): number | undefined;
  /** How many visitors are remembered. */
  size(): number;
}

export interface RateLimitOptions {
  limit: number;
  windowMs: number;
  /** Past this many visitors the least recently seen is forgotten. */
  maxVisitors?: number;
}

export function createRateLimiter({
  limit,
  windowMs,
  maxVisitors = 10_000,
}: RateLimitOptions): RateLimiter {
  const visitors = new Map<string, number[]>();
  return {
    take(key, now) {
      const times = (visitors.get(key) ?? []).filter((time) => now - time < windowMs);
      visitors.delete(key);
      visitors.set(key, times);
      if (times.length >= limit) {
        // A refused post is not counted: waiting Retry-After seconds is then always enough.
        return Math.max(1, Math.ceil(((times[0] as number) + windowMs - now) / 1000));
      }
      times.push(now);
      for (const oldest of visitors.keys()) {
        if (visitors.size <= maxVisitors) break;
        visitors.delete(oldest);
      }
      return undefined;
    },
    size: () => visitors.size,
  };
}
