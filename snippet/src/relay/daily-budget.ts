// How many chat messages the whole relay sends to the model in a UTC day: the owner's spend cap,
// whatever the number of visitors or addresses. The count lives behind a small interface so a
// relay with a shared store (several instances behind a balancer) counts in that store.

const DAY_MS = 86_400_000;

/** Seconds from `now` to the next UTC midnight, at least 1. */
export const secondsToNextUtcDay = (now: number): number =>
  Math.max(1, Math.ceil((DAY_MS - (now % DAY_MS)) / 1000));

export interface DailyBudget {
  /**
   * Counts one message of the UTC day `now` falls in; answers the seconds to the next UTC day
   * when the day's messages were already all spent (that message must not be sent).
   */
  take(now: number): Promise<number | undefined>;
}

/**
 * A counter of messages per UTC day, shared by every caller: in this process, or in a store
 * several relays share (`increment` answers the key's count after adding one, the key expiring
 * after `ttlS`; Redis `INCR` + `EXPIRE`).
 */
export interface DailyCounter {
  increment(key: string, ttlS: number): Promise<number>;
}

/** The day's count in this process's memory. */
export function memoryDailyCounter(): DailyCounter {
  let day = '';
  let count = 0;
  return {
    async increment(key) {
      if (key !== day) {
        day = key;
        count = 0;
      }
      return ++count;
    },
  };
}

export function createDailyBudget(limit: number, counter = memoryDailyCounter()): DailyBudget {
  return {
    async take(now) {
      const key = `sitebeam:chat:day:${new Date(now).toISOString().slice(0, 10)}`;
      const wait = secondsToNextUtcDay(now);
      // Counted first, so relays sharing a store never send more than the limit between them.
      return (await counter.increment(key, wait)) > limit ? wait : undefined;
    },
  };
}
