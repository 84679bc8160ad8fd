// The outbox on Deno: Deno KV keeps each message, and its queue is the retry timer. Each try is a
// queue message (`enqueue` with `delay`) naming the message and its attempt number; `listenQueue`
// runs it. A message's record, its try and the store's usage change in one atomic operation,
// checked against what was read, so two isolates never take the same try. A try under way is
// marked first: if its isolate dies, Deno delivers the queue message again (at least once) and the
// mark, once older than the claim's expiry, lets it through. Should Deno itself give a try up (the
// listener failing every time), `keysIfUndelivered` keeps it under the message's id, so the
// message shows as given up and the owner can retry it. Given-up messages are removed by a queue
// message of their own, a retention period later. Structural types only: nothing here needs Deno.
import {
  createRecoveryWatch,
  createRunGuard,
  type Decision,
  decisionLine,
  pausedLine,
  tryDue,
} from './delivery.js';
import {
  entryOf,
  type NewMessage,
  type Outbox,
  type OutboxChange,
  type OutboxDelivery,
  type OutboxEntry,
  type OutboxRecord,
  type OutboxStore,
  recordBytes,
} from './outbox.js';

type KvKey = readonly unknown[];

interface KvEntry<T> {
  key: KvKey;
  value: T | null;
  versionstamp: string | null;
}

interface AtomicLike {
  check(...checks: Array<{ key: KvKey; versionstamp: string | null }>): AtomicLike;
  set(key: KvKey, value: unknown): AtomicLike;
  delete(key: KvKey): AtomicLike;
  enqueue(
    value: unknown,
    options?: { delay?: number; keysIfUndelivered?: KvKey[]; backoffSchedule?: number[] },
  ): AtomicLike;
  commit(): Promise<{ ok: boolean }>;
}

/** The part of `Deno.Kv` the outbox uses (`await Deno.openKv()`, run with `--unstable-kv`). */
export interface DenoKvLike {
  get<T>(key: KvKey): Promise<KvEntry<T>>;
  list<T>(selector: { prefix: KvKey }): AsyncIterable<KvEntry<T>>;
  atomic(): AtomicLike;
  listenQueue(handler: (value: unknown) => Promise<void> | void): Promise<void>;
}

interface Stored extends OutboxRecord {
  state: 'waiting' | 'given_up';
  /** Which queue message may try it: an older one (superseded by a retry or a drain) does nothing. */
  attempt: number;
  nextTryAt?: number;
  givenUpAt?: number;
  sendingSince?: number;
}

interface Usage {
  count: number;
  bytes: number;
}

/** A try (or, with `purge`, the removal of a given-up message): what the queue carries. */
interface QueueMessage {
  sitebeamOutbox: string;
  attempt: number;
  purge?: boolean;
  /** When it was enqueued: a try Deno gave up shows as given up from about then. */
  at: number;
}

const ROOT = 'sitebeam-outbox';
const messageKey = (id: string): KvKey => [ROOT, 'message', id];
const undeliveredKey = (id: string): KvKey => [ROOT, 'undelivered', id];
const USAGE_KEY: KvKey = [ROOT, 'usage'];
/** Deno's own redelivery when the listener fails (a store error): five tries over about 20 minutes. */
const BACKOFF = [5_000, 30_000, 60_000, 300_000, 900_000];
/** Deno refuses a queue delay over 30 days. */
const MAX_DELAY_MS = 30 * 86_400_000;

const isQueueMessage = (value: unknown): value is QueueMessage =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as QueueMessage).sitebeamOutbox === 'string' &&
  typeof (value as QueueMessage).attempt === 'number';

/**
 * The relay's `outbox` option on Deno: `kv` keeps and delivers the messages. The outbox listens on
 * the database's queue (`listenQueue`, once per database): give it a database of its own if your
 * application uses the queue too.
 */
export function denoKvOutbox(kv: DenoKvLike): OutboxStore {
  return (delivery) => openDenoKvOutbox(kv, delivery);
}

function openDenoKvOutbox(kv: DenoKvLike, delivery: OutboxDelivery): Outbox {
  const { settings, log } = delivery;
  const recovery = createRecoveryWatch();
  // Queue messages come one by one: a "run" is the tries of different messages in a row.
  let guard = createRunGuard(settings);
  let lastTried: string | undefined;
  let pausedUntil = 0;

  const enqueueTry = (op: AtomicLike, id: string, attempt: number, delayMs: number) =>
    op.enqueue({ sitebeamOutbox: id, attempt, at: Date.now() } satisfies QueueMessage, {
      delay: Math.min(MAX_DELAY_MS, Math.max(0, Math.round(delayMs))),
      keysIfUndelivered: [undeliveredKey(id)],
      backoffSchedule: BACKOFF,
    });

  /** Commits `build`'s operation with the usage it changes, read and checked; retried on a race. */
  const commitWithUsage = async (
    checks: Array<KvEntry<unknown>>,
    build: (op: AtomicLike, usage: Usage) => AtomicLike | undefined,
  ): Promise<'done' | 'refused' | 'changed'> => {
    for (let round = 0; round < 10; round += 1) {
      const usageEntry = await kv.get<Usage>(USAGE_KEY);
      const usage = usageEntry.value ?? { count: 0, bytes: 0 };
      const op = build(kv.atomic().check(usageEntry, ...checks), usage);
      if (!op) return 'refused';
      if ((await op.commit()).ok) return 'done';
      // Someone else changed a checked record (not just the usage): the caller decides again.
      for (const entry of checks) {
        if ((await kv.get(entry.key)).versionstamp !== entry.versionstamp) return 'changed';
      }
    }
    throw new Error('the outbox is too busy to change; try again');
  };

  const apply = async (entry: KvEntry<Stored>, decision: Decision) => {
    const before = entry.value as Stored;
    const id = before.id;
    const { sendingSince: _, ...rest } = before;
    if (decision.action === 'delete') {
      await commitWithUsage([entry], (op, usage) =>
        op
          .delete(messageKey(id))
          .set(USAGE_KEY, { count: usage.count - 1, bytes: usage.bytes - recordBytes(before) }),
      );
      log(decisionLine(id, decision, before.tries));
      return;
    }
    const attempt = before.attempt + 1;
    const stored: Stored =
      decision.action === 'wait'
        ? { ...rest, ...decision.record, state: 'waiting', attempt, nextTryAt: decision.nextTryAt }
        : {
            ...rest,
            ...decision.record,
            state: 'given_up',
            attempt,
            givenUpAt: decision.givenUpAt,
          };
    await commitWithUsage([entry], (op, usage) => {
      const next = op.set(messageKey(id), stored).set(USAGE_KEY, {
        ...usage,
        bytes: usage.bytes + recordBytes(stored) - recordBytes(before),
      });
      if (decision.action === 'wait') {
        return enqueueTry(next, id, attempt, decision.nextTryAt - Date.now());
      }
      return next.enqueue(
        { sitebeamOutbox: id, attempt, purge: true, at: Date.now() } satisfies QueueMessage,
        { delay: Math.min(MAX_DELAY_MS, settings.retentionDays * 86_400_000) },
      );
    });
    log(decisionLine(id, decision, before.tries));
  };

  const purge = async (entry: KvEntry<Stored>) => {
    const stored = entry.value as Stored;
    await commitWithUsage([entry], (op, usage) =>
      op
        .delete(messageKey(stored.id))
        .delete(undeliveredKey(stored.id))
        .set(USAGE_KEY, { count: usage.count - 1, bytes: usage.bytes - recordBytes(stored) }),
    );
  };

  /** Runs one queue message: a try of a waiting message, or the removal of a given-up one. */
  const handle = async (value: unknown) => {
    if (!isQueueMessage(value)) return;
    const entry = await kv.get<Stored>(messageKey(value.sitebeamOutbox));
    const stored = entry.value;
    // Deleted, or superseded by a retry or a drain: that one has a queue message of its own.
    if (!stored || stored.attempt !== value.attempt) return;
    if (value.purge) {
      if (stored.state === 'given_up') await purge(entry);
      return;
    }
    if (stored.state !== 'waiting') return;
    const now = Date.now();
    if (stored.sendingSince !== undefined && now - stored.sendingSince < settings.claimIdleMs) {
      // Deno delivered this try again while its first run may still be sending: later, please.
      throw new Error(`message ${stored.id} is being sent`);
    }
    if (now < pausedUntil) {
      await apply(entry, { action: 'wait', record: stored, nextTryAt: pausedUntil });
      return;
    }
    const tried = await tryDue(stored, delivery, async () => {
      const claimed: Stored = { ...stored, sendingSince: now };
      return (await kv.atomic().check(entry).set(messageKey(stored.id), claimed).commit()).ok;
    });
    if (!tried) return;
    const { decision, outcome } = tried;
    if (!outcome) {
      await apply(entry, decision);
      return;
    }
    const mine = await kv.get<Stored>(messageKey(stored.id));
    if (mine.value?.attempt !== stored.attempt) return;
    await apply(mine, decision);
    if (recovery.recovered(outcome)) await drain();
    const again = lastTried === stored.id;
    lastTried = stored.id;
    if (!again && guard.stop(outcome)) {
      pausedUntil = Date.now() + settings.breakerS * 1000;
      guard = createRunGuard(settings);
      log(pausedLine(settings));
    }
  };

  const all = async () => {
    const found: Array<KvEntry<Stored>> = [];
    for await (const entry of kv.list<Stored>({ prefix: [ROOT, 'message'] })) found.push(entry);
    return found;
  };

  const drain = async () => {
    const now = Date.now();
    pausedUntil = 0;
    for (const entry of await all()) {
      const stored = entry.value as Stored;
      if (stored.state !== 'waiting' || stored.sendingSince !== undefined) continue;
      if ((stored.nextTryAt ?? 0) <= now) continue;
      const attempt = stored.attempt + 1;
      const op = kv
        .atomic()
        .check(entry)
        .set(messageKey(stored.id), { ...stored, attempt, nextTryAt: now });
      await enqueueTry(op, stored.id, attempt, 0).commit();
    }
  };

  kv.listenQueue(handle).catch((error: unknown) => {
    log(`sitebeam-relay: outbox: Deno KV's queue stopped: ${String(error)}`);
  });

  return {
    description: 'Deno KV',
    async keep(message: NewMessage) {
      const now = Date.now();
      const stored: Stored = {
        id: crypto.randomUUID(),
        mail: message.mail,
        acceptedAt: now,
        tries: message.tries,
        ...(message.lastError === undefined ? {} : { lastError: message.lastError }),
        state: 'waiting',
        attempt: 1,
        nextTryAt: now + message.delayMs,
      };
      const size = recordBytes(stored);
      const result = await commitWithUsage([], (op, usage) => {
        if (usage.count >= settings.maxMessages || usage.bytes + size > settings.maxBytes) {
          return undefined;
        }
        const next = op
          .check({ key: messageKey(stored.id), versionstamp: null })
          .set(messageKey(stored.id), stored)
          .set(USAGE_KEY, { count: usage.count + 1, bytes: usage.bytes + size });
        return enqueueTry(next, stored.id, 1, message.delayMs);
      });
      return result === 'done' ? stored.id : undefined;
    },
    async list() {
      const undelivered = new Map<string, QueueMessage>();
      for await (const entry of kv.list<QueueMessage>({ prefix: [ROOT, 'undelivered'] })) {
        if (entry.value) undelivered.set(entry.value.sitebeamOutbox, entry.value);
      }
      const entries: OutboxEntry[] = (await all()).map(({ value }) => {
        const stored = value as Stored;
        const lost = undelivered.get(stored.id);
        if (stored.state === 'waiting' && lost?.attempt === stored.attempt) {
          const lastError = `Deno KV's queue gave the try up${stored.lastError ? `; last: ${stored.lastError}` : ''}`;
          return entryOf({ ...stored, lastError }, 'given_up', { givenUpAt: lost.at });
        }
        const state = stored.sendingSince !== undefined ? 'sending' : stored.state;
        return entryOf(stored, state, stored);
      });
      return entries.sort((a, b) => a.acceptedAt - b.acceptedAt);
    },
    async retry(id) {
      const entry = await kv.get<Stored>(messageKey(id));
      const stored = entry.value;
      if (!stored) return 'not_found';
      if (stored.sendingSince !== undefined) return 'busy';
      const now = Date.now();
      const { givenUpAt: _, ...rest } = stored;
      const retried: Stored = {
        ...rest,
        state: 'waiting',
        attempt: stored.attempt + 1,
        nextTryAt: now,
        retriedAt: now,
      };
      const result = await commitWithUsage([entry], (op, usage) =>
        enqueueTry(
          op
            .set(messageKey(id), retried)
            .delete(undeliveredKey(id))
            .set(USAGE_KEY, {
              ...usage,
              bytes: usage.bytes + recordBytes(retried) - recordBytes(stored),
            }),
          id,
          retried.attempt,
          0,
        ),
      );
      return result === 'done' ? 'done' : 'busy';
    },
    async remove(id) {
      const entry = await kv.get<Stored>(messageKey(id));
      const stored = entry.value;
      if (!stored) return 'not_found';
      if (stored.sendingSince !== undefined) return 'busy';
      const result = await commitWithUsage([entry], (op, usage) =>
        op
          .delete(messageKey(id))
          .delete(undeliveredKey(id))
          .set(USAGE_KEY, { count: usage.count - 1, bytes: usage.bytes - recordBytes(stored) }),
      );
      return (result === 'done' ? 'done' : 'busy') satisfies OutboxChange;
    },
    drain,
    close: async () => undefined,
  };
}
