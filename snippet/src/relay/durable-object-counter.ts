// The rate limits on Cloudflare Workers, shared by every isolate: one Durable Object per visitor
// key, which Cloudflare runs once worldwide, keeping the key's post times in its storage (its
// requests run one at a time, so read-count-write is atomic) and deleting them by an alarm once
// the window has passed. Structural types only, so nothing here needs Workers' own packages.
import { withMemoryFallback } from './counter-fallback.js';
import { slideWindow, type WindowCounter } from './rate-limit.js';

interface DurableObjectStorageLike {
  get<T>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  deleteAll(): Promise<void>;
  setAlarm(scheduledTime: number): Promise<void>;
}

/** The part of a Durable Object namespace binding (`env.RATE_LIMIT`) the counter uses. */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: never): { fetch(input: string, init?: RequestInit): Promise<Response> };
}

const TIMES = 'times';

/** The Durable Object class: export it from the Worker's module and bind it in wrangler.toml. */
export class SitebeamRateLimit {
  readonly #storage: DurableObjectStorageLike;

  constructor(state: { storage: DurableObjectStorageLike }) {
    this.#storage = state.storage;
  }

  async fetch(request: Request): Promise<Response> {
    const { limit, windowMs } = (await request.json()) as { limit: number; windowMs: number };
    const now = Date.now();
    const previous = (await this.#storage.get<number[]>(TIMES)) ?? [];
    const { times, waitMs } = slideWindow(previous, limit, windowMs, now);
    if (waitMs === undefined) {
      await this.#storage.put(TIMES, times);
      await this.#storage.setAlarm(now + windowMs);
    }
    return Response.json({ waitMs: waitMs ?? null });
  }

  /** Every post has left the window by the time the last one's alarm rings. */
  async alarm(): Promise<void> {
    await this.#storage.deleteAll();
  }
}

/**
 * Counts in the `SitebeamRateLimit` Durable Objects bound as `namespace`; while they cannot be
 * reached, in this isolate's memory (logged once per outage to `log`).
 */
export function durableObjectCounter(
  namespace: DurableObjectNamespaceLike,
  log: (line: string) => void = (line) => console.error(line),
): WindowCounter {
  const store: WindowCounter = {
    async take(key, limit, windowMs) {
      const object = namespace.get(namespace.idFromName(key) as never);
      const response = await object.fetch('https://rate-limit.invalid/take', {
        method: 'POST',
        body: JSON.stringify({ limit, windowMs }),
      });
      if (!response.ok) throw new Error(`the Durable Object answered ${response.status}`);
      const { waitMs } = (await response.json()) as { waitMs: number | null };
      return waitMs ?? undefined;
    },
  };
  return withMemoryFallback(store, { name: 'Durable Object SitebeamRateLimit', log });
}
