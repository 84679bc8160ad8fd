import { describe, expect, it } from 'vitest';
import { withMemoryFallback } from '../../src/relay/counter-fallback.js';
import {
  createMemoryCounter,
  createRateLimiter,
  type WindowCounter,
} from '../../src/relay/rate-limit.js';

describe('createRateLimiter', () => {
  it('allows the limit per window, then answers the seconds until the oldest post leaves it, per visitor', async () => {
    const limiter = createRateLimiter({ limit: 3, windowMs: 60_000, scope: 'contact' });
    const start = 1_000_000;
    for (let post = 0; post < 3; post++)
      expect(await limiter.take('203.0.113.1', start + post)).toBeUndefined();
    expect(await limiter.take('203.0.113.1', start + 15_000)).toBe(45);
    expect(await limiter.take('203.0.113.2', start + 15_000)).toBeUndefined();
    expect(await limiter.take('203.0.113.1', start + 60_000)).toBeUndefined();
  });

  it('keeps limits sharing one counter apart by their scope', async () => {
    const counter = createMemoryCounter();
    const contact = createRateLimiter({ limit: 1, windowMs: 60_000, counter, scope: 'contact' });
    const chat = createRateLimiter({ limit: 1, windowMs: 60_000, counter, scope: 'chat' });
    expect(await contact.take('203.0.113.1', 0)).toBeUndefined();
    expect(await chat.take('203.0.113.1', 0)).toBeUndefined();
    expect(await contact.take('203.0.113.1', 0)).toBe(60);
    expect(counter.size()).toBe(2);
  });
});

describe('withMemoryFallback', () => {
  /** A store that fails while `down` is true, else counts in memory of its own. */
  function flakyStore() {
    const inner = createMemoryCounter();
    const store = {
      down: false,
      calls: 0,
      async take(...args: Parameters<WindowCounter['take']>) {
        store.calls += 1;
        if (store.down) throw new Error('connection refused');
        return inner.take(...args);
      },
    };
    return store;
  }

  it('counts in memory while the store fails, logs once per outage and once on recovery', async () => {
    const store = flakyStore();
    const logged: string[] = [];
    const counter = withMemoryFallback(store, {
      name: 'test store',
      log: (line) => logged.push(line),
    });
    expect(await counter.take('a', 2, 60_000, 0)).toBeUndefined();
    store.down = true;
    expect(await counter.take('b', 2, 60_000, 0)).toBeUndefined();
    expect(await counter.take('b', 2, 60_000, 0)).toBeUndefined();
    expect(await counter.take('b', 2, 60_000, 1_000)).toBe(59_000);
    expect(logged).toEqual([
      'sitebeam-relay: the rate-limit store (test store) failed (connection refused); counting in memory, per instance, until it answers again.',
    ]);
    store.down = false;
    // Back in the store, which remembers "a" from before the outage.
    expect(await counter.take('a', 2, 60_000, 0)).toBeUndefined();
    expect(await counter.take('a', 2, 60_000, 0)).toBe(60_000);
    store.down = true;
    await counter.take('a', 2, 60_000, 0);
    expect(logged).toHaveLength(3);
    expect(logged[1]).toBe(
      'sitebeam-relay: the rate-limit store (test store) answers again; counting there again.',
    );
    expect(logged[2]).toMatch(/failed \(connection refused\)/);
    expect(store.calls).toBe(7);
  });

  it('counts in memory when the store does not answer in time', async () => {
    const logged: string[] = [];
    const silent: WindowCounter = { take: () => new Promise(() => {}) };
    const counter = withMemoryFallback(silent, {
      name: 'silent store',
      log: (line) => logged.push(line),
      timeoutMs: 10,
    });
    expect(await counter.take('a', 1, 60_000, 0)).toBeUndefined();
    expect(await counter.take('a', 1, 60_000, 0)).toBe(60_000);
    expect(logged).toEqual([
      'sitebeam-relay: the rate-limit store (silent store) failed (no answer within 10 ms); counting in memory, per instance, until it answers again.',
    ]);
  });
});
