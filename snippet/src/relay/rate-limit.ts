// Posts per visitor per minute, counted in memory (per process or per serverless isolate).

export interface RateLimiter {
  /** Counts one post from `key`; answers the seconds to wait when it is over the limit. */
  take(key: string, now: number): number | undefined;
}

const windowMs = 60_000;
/** Past this many visitors, finished windows are swept so memory stays bounded. */
const sweepAbove = 10_000;

export function createRateLimiter(perMinute: number): RateLimiter {
  const windows = new Map<string, { startedAt: number; count: number }>();
  return {
    take(key, now) {
      if (windows.size > sweepAbove) {
        for (const [visitor, window] of windows) {
          if (now - window.startedAt >= windowMs) windows.delete(visitor);
        }
      }
      const window = windows.get(key);
      if (!window || now - window.startedAt >= windowMs) {
        windows.set(key, { startedAt: now, count: 1 });
        return undefined;
      }
      window.count += 1;
      if (window.count <= perMinute) return undefined;
      return Math.max(1, Math.ceil((window.startedAt + windowMs - now) / 1000));
    },
  };
}
