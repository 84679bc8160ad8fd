// The relay's outbox: a contact message the instance could not take for a passing reason (no
// answer, a time-out, 429, 5xx) is kept in a durable store and delivered later, so that the visitor
// is told it was received (202 queued). One interface, one implementation per runtime's own store:
// Redis Streams (Node), a Durable Object's storage and alarm (workerd), Deno KV's queue (Deno).
// Without a durable store there is no outbox and the visitor is asked to try again.
import type { EmailMessage } from '../../client/index.js';
import type { ResolvedOutboxSettings } from './settings.js';

/** One kept message as every store holds it. */
export interface OutboxRecord {
  id: string;
  /** The mail exactly as it is sent to /v1/email. */
  mail: EmailMessage;
  /** Milliseconds since the epoch when the relay accepted it. */
  acceptedAt: number;
  /** Sends tried so far (0 when it was kept untried, the circuit breaker being open). */
  tries: number;
  /** Why the last try failed, in words, for the owner. */
  lastError?: string;
  /** When the owner last asked for a retry: the lifetime then counts from there. */
  retriedAt?: number;
}

export type OutboxState = 'waiting' | 'sending' | 'given_up';

/** What the owner sees of a message (`sitebeam-relay outbox list`). */
export interface OutboxEntry {
  id: string;
  state: OutboxState;
  to: string;
  subject: string;
  tries: number;
  lastError?: string;
  acceptedAt: number;
  /** When a waiting message is tried next. */
  nextTryAt?: number;
  /** When a given-up message was given up (it is removed a retention period later). */
  givenUpAt?: number;
}

/** What `retry` and `remove` did: `busy` while the message is being sent (ask again shortly). */
export type OutboxChange = 'done' | 'not_found' | 'busy';

/** A message for the store: the mail and how its first try went. */
export interface NewMessage {
  mail: EmailMessage;
  tries: number;
  lastError?: string;
  /** Milliseconds from now until the next try. */
  delayMs: number;
}

export interface Outbox {
  /** What and where the store is, for the start-up line and the owner (no password). */
  readonly description: string;
  /**
   * Stores the message durably: its id, or undefined when the store's cap (count or bytes) is
   * reached. Throws when the store cannot be reached: the visitor is then asked to try again.
   */
  keep(message: NewMessage): Promise<string | undefined>;
  list(): Promise<OutboxEntry[]>;
  /** Tries a waiting or given-up message now (a given-up one gets a new lifetime). */
  retry(id: string): Promise<OutboxChange>;
  remove(id: string): Promise<OutboxChange>;
  /** The instance took mail again after failing: whatever waits is tried now. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** A passing failure that may concern the whole instance (or only this mail), or a refusal for good. */
export type TryOutcome =
  | { kind: 'sent' }
  | {
      kind: 'passing';
      status: number;
      /** In words, for the owner: what the instance answered, or that it did not. */
      error: string;
      retryAfterS?: number;
      /** No answer, a time-out, 408, 429, 502–504: the instance, not the mail (a 500 may be the mail's own). */
      instanceDown: boolean;
    }
  | { kind: 'refused'; status: number; error: string };

/** How a store delivers: the relay's API client behind `send`, its log, the outbox settings. */
export interface OutboxDelivery {
  settings: ResolvedOutboxSettings;
  /** One line per event; never a message's body. */
  log(line: string): void;
  send(mail: EmailMessage): Promise<TryOutcome>;
}

/**
 * A store, given how to deliver (the relay's API client, its log and the outbox settings): the
 * `outbox` option of the relay, e.g. `durableObjectOutbox(env.OUTBOX)` or `denoKvOutbox(kv)`.
 */
export type OutboxStore = (delivery: OutboxDelivery) => Outbox;

/** The entry the owner sees for a record. */
export function entryOf(
  record: OutboxRecord,
  state: OutboxState,
  times: { nextTryAt?: number | undefined; givenUpAt?: number | undefined } = {},
): OutboxEntry {
  return {
    id: record.id,
    state,
    to: record.mail.to,
    subject: record.mail.subject,
    tries: record.tries,
    ...(record.lastError === undefined ? {} : { lastError: record.lastError }),
    acceptedAt: record.acceptedAt,
    ...(state === 'waiting' && times.nextTryAt !== undefined ? { nextTryAt: times.nextTryAt } : {}),
    ...(state === 'given_up' && times.givenUpAt !== undefined
      ? { givenUpAt: times.givenUpAt }
      : {}),
  };
}

/** The bytes a record takes toward the cap, without the mark of a try under way. */
export function recordBytes({
  sendingSince: _,
  ...record
}: OutboxRecord & { sendingSince?: number }) {
  return new TextEncoder().encode(JSON.stringify(record)).length;
}
