// The Redis counter against Debian's redis-server: the memory counter's sliding window and wait,
// keys that expire by themselves, and a malformed SITEBEAM_REDIS_URL refused by name.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RunningRedis,
  redisServerBinary,
  startRedis,
} from '../../../tests/support/redis-server.ts';
import { RelayConfigError } from '../../src/relay/env.js';
import { rateLimitStoreFromEnv } from '../../src/relay/rate-limit-store.js';
import { createRedisCounter, type RedisCounter } from '../../src/relay/redis-counter.js';

describe.skipIf(!redisServerBinary)('the Redis counter', () => {
  let redis: RunningRedis;
  let counter: RedisCounter;
  beforeAll(async () => {
    redis = await startRedis();
    counter = createRedisCounter(redis.url, 'test:');
  });
  afterAll(async () => {
    await counter?.close();
    await redis?.close();
  });

  it('counts up to the limit, then answers the wait until the oldest leaves the window', async () => {
    for (let post = 0; post < 3; post += 1) {
      expect(await counter.take('visitor', 3, 60_000, 0)).toBeUndefined();
    }
    const waitMs = (await counter.take('visitor', 3, 60_000, 0)) as number;
    expect(waitMs).toBeGreaterThan(55_000);
    expect(waitMs).toBeLessThanOrEqual(60_000);
    expect(await counter.take('other', 3, 60_000, 0)).toBeUndefined();
  });

  it('lets posts in again once the window has passed, and the key expires by itself', async () => {
    // Long enough that a busy machine cannot let it pass between the first two posts.
    const windowMs = 2_000;
    expect(await counter.take('short', 1, windowMs, 0)).toBeUndefined();
    expect(await counter.take('short', 1, windowMs, 0)).toBeGreaterThan(0);
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const ttl = await client.pTTL('test:short');
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(windowMs);
      await expect.poll(() => client.exists('test:short'), { timeout: windowMs + 10_000 }).toBe(0);
    } finally {
      client.destroy();
    }
    expect(await counter.take('short', 1, windowMs, 0)).toBeUndefined();
  });
});

describe('SITEBEAM_REDIS_URL', () => {
  it('unset, the limits count in memory: no store', async () => {
    expect(await rateLimitStoreFromEnv({}, () => {})).toBeUndefined();
  });

  it.each(['localhost:6379', 'http://cache:6379', 'redis://'])(
    'refuses %s by name',
    async (url) => {
      const attempt = rateLimitStoreFromEnv({ SITEBEAM_REDIS_URL: url }, () => {});
      await expect(attempt).rejects.toThrow(RelayConfigError);
      await expect(attempt).rejects.toThrow(
        /^SITEBEAM_REDIS_URL must be a redis:\/\/ or rediss:\/\//,
      );
    },
  );

  it('set without the redis package installed, stops the relay with one line that says what to do', () => {
    // The built relay copied where no node_modules folder holds redis, as an owner who never ran
    // npm install redis has it.
    const folder = mkdtempSync(join(tmpdir(), 'sitebeam-no-redis-'));
    try {
      cpSync(fileURLToPath(new URL('../../dist', import.meta.url)), join(folder, 'dist'), {
        recursive: true,
      });
      cpSync(
        fileURLToPath(new URL('../../package.json', import.meta.url)),
        join(folder, 'package.json'),
      );
      const run = spawnSync(process.execPath, [join(folder, 'dist/relay/cli.js'), '--port', '0'], {
        env: { PATH: process.env.PATH ?? '', SITEBEAM_REDIS_URL: 'redis://cache.internal:6379' },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(run.status).not.toBe(0);
      expect(run.status).not.toBeNull();
      const output = `${run.stdout}${run.stderr}`.trim();
      expect(output.split('\n')).toHaveLength(1);
      expect(output).toContain('SITEBEAM_REDIS_URL');
      expect(output).toContain('npm install redis');
      expect(output).not.toContain('ERR_MODULE_NOT_FOUND');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('passes on any other failure to load the Redis client', async () => {
    const broken = new Error('redis-counter.js: SyntaxError');
    const attempt = rateLimitStoreFromEnv(
      { SITEBEAM_REDIS_URL: 'redis://cache.internal:6379' },
      () => {},
      () => Promise.reject(broken),
    );
    await expect(attempt).rejects.toBe(broken);
  });
});
