/// <reference types="node" />
// The rate limits counted in Redis or Valkey, shared by every instance of the relay: one script per
// post (one round trip, atomic), a sorted set of post times per visitor that expires on its own,
// timed by the server's clock so the replicas' clocks need not agree. Loaded only when
// SITEBEAM_REDIS_URL is set, so a relay without it needs no Redis client.
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import type { WindowCounter } from './rate-limit.js';

// Answers -1 when the post is counted, else the milliseconds until the oldest post leaves the window.
const SLIDING_WINDOW = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tonumber(oldest[2]) + window - now
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return -1
`;

const CONNECT_TIMEOUT_MS = 2_000;

export interface RedisCounter extends WindowCounter {
  close(): Promise<void>;
}

/**
 * Connects to `url` (redis:// or rediss://) and keeps reconnecting by itself. While it is not
 * connected a count fails at once rather than waiting, so the caller can count elsewhere.
 */
export function createRedisCounter(url: string, keyPrefix = 'sitebeam:rate:'): RedisCounter {
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2_000),
    },
  });
  // Failures reach the caller through the rejected counts; an unheard 'error' would end the process.
  client.on('error', () => {});
  const connecting = client.connect().catch(() => undefined);
  // Counts wait for the first connection (2 s at most), or a relay just started would take its
  // first posts for an outage.
  const firstConnection = Promise.race([
    connecting,
    new Promise((resolve) => setTimeout(resolve, CONNECT_TIMEOUT_MS).unref()),
  ]);
  return {
    async take(key, limit, windowMs) {
      await firstConnection;
      const answer = await client.sendCommand([
        'EVAL',
        SLIDING_WINDOW,
        '1',
        `${keyPrefix}${key}`,
        String(limit),
        String(windowMs),
        randomUUID(),
      ]);
      const waitMs = Number(answer);
      if (!Number.isFinite(waitMs))
        throw new Error(`unexpected answer from Redis: ${String(answer)}`);
      return waitMs < 0 ? undefined : waitMs;
    },
    async close() {
      // Destroyed first: a client that cannot connect (Redis down, a wrong password) retries forever.
      if (client.isOpen) client.destroy();
      await connecting;
    },
  };
}
