// How many chat messages the whole relay sends to the model in a UTC day: the owner's spend cap,
// whatever the number of visitors or addresses. Counted in the relay's rate-limit store, so
// instances sharing one (Redis, a Durable Object) share one day's budget; in memory otherwise.
import { createRateLimiter, type WindowCounter } from './rate-limit.js';

const DAY_MS = 86_400_000;

/** Seconds from `now` to the next UTC midnight, at least 1. */
export const secondsToNextUtcDay = (now: number): number =>
  Math.max(1, Math.ceil((DAY_MS - (now % DAY_MS)) / 1000));

export interface DailyBudget {
  /**
   * Counts one message of the UTC day `now` falls in; answers the seconds to the next UTC day
   * instead, counting nothing, when the day's messages are all spent.
   */
  take(now: number): Promise<number | undefined>;
}

export function createDailyBudget(limit: number, counter?: WindowCounter): DailyBudget {
  // One key per UTC day, its window a whole day: every message of that day stays counted.
  const limiter = createRateLimiter({
    limit,
    windowMs: DAY_MS,
    scope: 'chat-day',
    ...(counter ? { counter } : {}),
  });
  return {
    async take(now) {
      const refused = await limiter.take(new Date(now).toISOString().slice(0, 10), now);
      return refused === undefined ? undefined : secondsToNextUtcDay(now);
    },
  };
}
