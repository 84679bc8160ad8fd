// SITEBEAM_REDIS_URL, shared by the rate limits and the outbox: checked once, described without
// its password, and the optional `redis` package loaded only when it is set.
import { RelayConfigError } from './env.js';

export const REDIS_URL_ENV = 'SITEBEAM_REDIS_URL';

export interface RedisTarget {
  url: string;
  /** e.g. `Redis at redis://cache.internal:6379`: no user, no password. */
  description: string;
}

/** The Redis the environment names, or undefined; refuses a URL Redis cannot be reached at. */
export function redisFromEnv(env: Record<string, string | undefined>): RedisTarget | undefined {
  const url = env[REDIS_URL_ENV]?.trim();
  if (!url) return undefined;
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
  const path = parsed.pathname === '/' ? '' : parsed.pathname;
  return { url, description: `Redis at ${parsed.protocol}//${parsed.host}${path}` };
}

/** Imports a module built on `redis`, refusing by name when the owner did not install it. */
export async function importNeedingRedis<T>(load: () => Promise<T>): Promise<T> {
  return load().catch((error: unknown) => {
    throw isRedisMissing(error)
      ? new RelayConfigError(
          REDIS_URL_ENV,
          'is set, but the redis package it needs is not installed: run npm install redis next to sitebeam',
        )
      : error;
  });
}

/** Node's refusal to import `redis`, an optional peer dependency the owner did not install. */
function isRedisMissing(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' &&
    /['"]redis['"]/.test(error.message)
  );
}
