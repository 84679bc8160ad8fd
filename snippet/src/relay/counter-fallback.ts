// A shared store that is down must not take the contact form down with it: while it fails, the
// relay counts in memory (per instance, as without a store), says so once, and goes back to the
// store by itself as soon as it answers again.
import { createMemoryCounter, type WindowCounter } from './rate-limit.js';

export interface FallbackOptions {
  /** What the store is, for the log, e.g. `Redis at redis://cache:6379`. */
  name: string;
  log: (line: string) => void;
  /**
   * Milliseconds a store may take before this count is made in memory instead (default 5,000:
   * a busy relay's own event loop can delay a healthy store's answer by a second or more).
   */
  timeoutMs?: number;
  fallback?: WindowCounter;
}

export function withMemoryFallback(
  store: WindowCounter,
  { name, log, timeoutMs = 5_000, fallback = createMemoryCounter() }: FallbackOptions,
): WindowCounter {
  let down = false;
  return {
    async take(key, limit, windowMs, now) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        const waitMs = await Promise.race([
          store.take(key, limit, windowMs, now),
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`no answer within ${timeoutMs} ms`)),
              timeoutMs,
            );
          }),
        ]);
        if (down) {
          down = false;
          log(
            `sitebeam-relay: the rate-limit store (${name}) answers again; counting there again.`,
          );
        }
        return waitMs;
      } catch (error) {
        if (!down) {
          down = true;
          log(
            `sitebeam-relay: the rate-limit store (${name}) failed (${errorText(error)}); counting in memory, per instance, until it answers again.`,
          );
        }
        return fallback.take(key, limit, windowMs, now);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
