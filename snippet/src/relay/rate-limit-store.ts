// Which store the rate limits count in, from SITEBEAM_REDIS_URL: unset, memory (per instance);
// set, Redis or Valkey shared by every instance, with memory while it is down.

import { RelayConfigError } from './config.js';
import { withMemoryFallback } from './counter-fallback.js';
import type { WindowCounter } from './rate-limit.js';

export const REDIS_URL_ENV = 'SITEBEAM_REDIS_URL';

export interface RateLimitStore {
  counter: WindowCounter;
  /** What the relay counts in, for its start-up line (no password). */
  description: string;
  close(): Promise<void>;
}

/** The shared store named by the environment, or undefined (memory); refuses a malformed URL by name. */
export async function rateLimitStoreFromEnv(
  env: Record<string, string | undefined>,
  log: (line: string) => void,
): Promise<RateLimitStore | undefined> {
  const url = env[REDIS_URL_ENV]?.trim();
  if (!url) return undefined;
  const description = redisUrlDescription(url);
  const { createRedisCounter } = await import('./redis-counter.js');
  const redis = createRedisCounter(url);
  return {
    counter: withMemoryFallback(redis, { name: description, log }),
    description,
    close: () => redis.close(),
  };
}

/** The URL without user or password, after checking it is one Redis can be reached at. */
function redisUrlDescription(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {}
  if (
    !parsed ||
    (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') ||
    !parsed.hostname
  ) {
    throw new RelayConfigError(
      REDIS_URL_ENV,
      'must be a redis:// or rediss:// URL, e.g. redis://cache.internal:6379',
    );
  }
  return `Redis at ${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}
