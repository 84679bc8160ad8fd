// Which store the rate limits count in, from SITEBEAM_REDIS_URL: unset, memory (per instance);
// set, Redis or Valkey shared by every instance, with memory while it is down.

import { withMemoryFallback } from './counter-fallback.js';
import { RelayConfigError } from './env.js';
import type { WindowCounter } from './rate-limit.js';

export const REDIS_URL_ENV = 'SITEBEAM_REDIS_URL';

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
  const url = env[REDIS_URL_ENV]?.trim();
  if (!url) return undefined;
  const description = redisUrlDescription(url);
  const { createRedisCounter } = await load().catch((error: unknown) => {
    throw isRedisMissing(error)
      ? new RelayConfigError(
          REDIS_URL_ENV,
          'is set, but the redis package it needs is not installed: run npm install redis next to sitebeam',
        )
      : error;
  });
  const redis = createRedisCounter(url);
  return {
    counter: withMemoryFallback(redis, { name: description, log }),
    description,
    close: () => redis.close(),
  };
}

/** Node's refusal to import `redis`, an optional peer dependency the owner did not install. */
function isRedisMissing(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' &&
    /['"]redis['"]/.test(error.message)
  );
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
