import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../src/relay/rate-limit.js';

describe('createRateLimiter', () => {
  it('allows the limit per window, then answers the seconds until the oldest post leaves it, per visitor', () => {
    const limiter = createRateLimiter({ limit: 3, windowMs: 60_000 });
    const start = 1_000_000;
    for (let post = 0; post < 3; post++)
      expect(limiter.take('203.0.113.1', start + post)).toBeUndefined();
    expect(limiter.take('203.0.113.1', start + 15_000)).toBe(45);
    expect(limiter.take('203.0.113.2', start + 15_000)).toBeUndefined();
    expect(limiter.take('203.0.113.1', start + 60_000)).toBeUndefined();
  });
});
