// Which store the rate limits count in, from SITEBEAM_REDIS_URL: unset, memory (per instance);
// set, Redis or Valkey shared by every instance, with memory while it is down.
import { withMemoryFallback } from './counter-fallback.js';
import type { WindowCounter } from './rate-limit.js';
import { importNeedingRedis, redisFromEnv } from './redis-env.js';

export interface RateLimitStore {
  counter: WindowCounter;
  /** What the relay counts in, for its start-up line (no password). */
  description: string;
  close(): Promise<void>;
}

type RedisCounterModule = typeof import('./redis-counter.js');

/**
 * The shared store named by the environment, or undefined (memory); refuses a malformed URL, or a
 * URL without the optional `redis` package installed, by name.
 */
export async function rateLimitStoreFromEnv(
  env: Record<string, string | undefined>,
  log: (line: string) => void,
  load: () => Promise<RedisCounterModule> = () => import('./redis-counter.js'),
): Promise<RateLimitStore | undefined> {
  const redis = redisFromEnv(env);
  if (!redis) return undefined;
  const { createRedisCounter } = await importNeedingRedis(load);
  const counter = createRedisCounter(redis.url);
  return {
    counter: withMemoryFallback(counter, { name: redis.description, log }),
    description: redis.description,
    close: () => counter.close(),
  };
}
