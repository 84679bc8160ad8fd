// The outbox on Cloudflare Workers: one Durable Object, `SitebeamOutbox`, which Cloudflare runs once
// worldwide, keeps every message in its storage and delivers them from its alarm, the retry timer.
// Its events run one at a time between awaits of anything but storage, so a check and the write
// that follows it are atomic; one alarm runs at a time, and an alarm that fails or whose object dies
// mid-send runs again by itself (a try under way is marked first, so it is tried again: at least
// once). The object reads the instance and the outbox settings from the Worker's own variables.
// Structural types only, so nothing here needs Workers' own packages.
import { baseUrlProblem } from '../../client/base-url.js';
import { envReader } from '../env.js';
import { safeLog } from '../safe-log.js';
import {
  createDelivery,
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
import {
  outboxSettingsFromEnv,
  type ResolvedOutboxSettings,
  resolveOutboxSettings,
} from './settings.js';

interface StorageLike {
  get<T>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<boolean>;
  list<T>(options: { prefix: string }): Promise<Map<string, T>>;
  setAlarm(scheduledTime: number): Promise<void>;
  getAlarm(): Promise<number | null>;
  deleteAlarm(): Promise<void>;
}

/** The part of a Durable Object namespace binding (`env.OUTBOX`) the outbox uses. */
export interface OutboxNamespaceLike {
  idFromName(name: string): unknown;
  get(id: never): { fetch(input: string, init?: RequestInit): Promise<Response> };
}

/** A record as the object keeps it: where it stands, besides what every store keeps. */
interface Stored extends OutboxRecord {
  state: 'waiting' | 'given_up';
  nextTryAt?: number;
  givenUpAt?: number;
  /** Set while a try is under way; still set at the next alarm, the object died mid-send. */
  sendingSince?: number;
}

interface Usage {
  count: number;
  bytes: number;
}

const MESSAGE = 'message:';
const USAGE = 'usage';
const ORIGIN = 'https://outbox.invalid';

/** The Durable Object class: export it from the Worker's module and bind it as OUTBOX in wrangler.toml. */
export class SitebeamOutbox {
  readonly #storage: StorageLike;
  readonly #delivery: OutboxDelivery | undefined;
  readonly #settings: ResolvedOutboxSettings;
  readonly #problem: string | undefined;
  readonly #recovery = createRecoveryWatch();

  constructor(state: { storage: StorageLike }, env: Record<string, unknown>) {
    this.#storage = state.storage;
    const strings = Object.fromEntries(
      Object.entries(env).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    );
    let delivery: OutboxDelivery | undefined;
    let problem: string | undefined;
    let settings: ResolvedOutboxSettings;
    try {
      settings = resolveOutboxSettings(outboxSettingsFromEnv(strings));
      delivery = deliveryFromEnv(strings, settings);
    } catch (error) {
      settings = resolveOutboxSettings();
      problem = error instanceof Error ? error.message : String(error);
    }
    this.#settings = settings;
    this.#delivery = delivery;
    this.#problem = problem;
  }

  async fetch(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    const body =
      request.method === 'POST' ? ((await request.json()) as Record<string, unknown>) : {};
    if (path === '/keep')
      return Response.json({ id: await this.#keep(body.message as NewMessage) });
    if (path === '/list') return Response.json({ messages: await this.#list() });
    if (path === '/retry') return Response.json({ change: await this.#retry(String(body.id)) });
    if (path === '/remove') return Response.json({ change: await this.#remove(String(body.id)) });
    if (path === '/drain') {
      await this.#drain(Date.now());
      return Response.json({});
    }
    return new Response('Not found', { status: 404 });
  }

  /** Tries every due message, one after the other, then sets the alarm for the next one. */
  async alarm(): Promise<void> {
    const delivery = this.#delivery;
    if (!delivery) {
      console.error(`sitebeam-relay: outbox: cannot deliver: ${this.#problem}`);
      await this.#storage.setAlarm(Date.now() + 3_600_000);
      return;
    }
    let again = true;
    while (again) {
      again = await this.#run(delivery);
    }
    await this.#purge(Date.now());
    await this.#scheduleNext();
  }

  /** One pass over what is due; true when the instance came back and what waits is due now. */
  async #run(delivery: OutboxDelivery): Promise<boolean> {
    const settings = this.#settings;
    const now = Date.now();
    const due = [...(await this.#messages()).values()]
      .filter(
        (stored) =>
          stored.state === 'waiting' &&
          (stored.sendingSince !== undefined || (stored.nextTryAt ?? 0) <= now),
      )
      .sort((a, b) => (a.nextTryAt ?? 0) - (b.nextTryAt ?? 0));
    const guard = createRunGuard(settings);
    for (const [index, stored] of due.entries()) {
      const tried = await tryDue(stored, delivery, async () => {
        await this.#put({ ...stored, sendingSince: Date.now() });
        return true;
      });
      if (!tried) continue;
      const { decision, outcome } = tried;
      await this.#apply(stored, decision, delivery);
      if (!outcome) continue;
      if (this.#recovery.recovered(outcome)) {
        await this.#drain(Date.now());
        return true;
      }
      if (guard.stop(outcome)) {
        const later = Date.now() + settings.breakerS * 1000;
        for (const rest of due.slice(index + 1)) {
          const current = await this.#storage.get<Stored>(MESSAGE + rest.id);
          if (current?.state === 'waiting') await this.#put({ ...current, nextTryAt: later });
        }
        delivery.log(pausedLine(settings));
        return false;
      }
    }
    return false;
  }

  async #apply(before: Stored, decision: Decision, delivery: OutboxDelivery) {
    const id = before.id;
    delivery.log(decisionLine(id, decision, before.tries));
    if (decision.action === 'delete') {
      await this.#storage.delete(MESSAGE + id);
      await this.#changeUsage(-1, -recordBytes(before));
      return;
    }
    const { sendingSince: _, ...record } = { ...before, ...decision.record };
    const stored: Stored =
      decision.action === 'wait'
        ? { ...record, state: 'waiting', nextTryAt: decision.nextTryAt }
        : { ...record, state: 'given_up', givenUpAt: decision.givenUpAt };
    await this.#put(stored);
    await this.#changeUsage(0, recordBytes(stored) - recordBytes(before));
  }

  async #keep(message: NewMessage): Promise<string | undefined> {
    const now = Date.now();
    const stored: Stored = {
      id: crypto.randomUUID(),
      mail: message.mail,
      acceptedAt: now,
      tries: message.tries,
      ...(message.lastError === undefined ? {} : { lastError: message.lastError }),
      state: 'waiting',
      nextTryAt: now + message.delayMs,
    };
    const usage = await this.#usage();
    const size = recordBytes(stored);
    if (usage.count >= this.#settings.maxMessages || usage.bytes + size > this.#settings.maxBytes) {
      return undefined;
    }
    await this.#put(stored);
    await this.#storage.put(USAGE, { count: usage.count + 1, bytes: usage.bytes + size });
    await this.#alarmBy(stored.nextTryAt as number);
    return stored.id;
  }

  async #list(): Promise<OutboxEntry[]> {
    return [...(await this.#messages()).values()]
      .map((stored) =>
        entryOf(stored, stored.sendingSince !== undefined ? 'sending' : stored.state, stored),
      )
      .sort((a, b) => a.acceptedAt - b.acceptedAt);
  }

  async #retry(id: string): Promise<OutboxChange> {
    const stored = await this.#storage.get<Stored>(MESSAGE + id);
    if (!stored) return 'not_found';
    if (stored.sendingSince !== undefined) return 'busy';
    const now = Date.now();
    const { givenUpAt: _, ...rest } = stored;
    const retried: Stored = { ...rest, state: 'waiting', nextTryAt: now, retriedAt: now };
    await this.#put(retried);
    await this.#changeUsage(0, recordBytes(retried) - recordBytes(stored));
    await this.#alarmBy(now);
    return 'done';
  }

  async #remove(id: string): Promise<OutboxChange> {
    const stored = await this.#storage.get<Stored>(MESSAGE + id);
    if (!stored) return 'not_found';
    if (stored.sendingSince !== undefined) return 'busy';
    await this.#storage.delete(MESSAGE + id);
    await this.#changeUsage(-1, -recordBytes(stored));
    return 'done';
  }

  async #drain(now: number) {
    for (const stored of (await this.#messages()).values()) {
      if (stored.state === 'waiting' && (stored.nextTryAt ?? 0) > now) {
        await this.#put({ ...stored, nextTryAt: now });
      }
    }
    await this.#alarmBy(now);
  }

  async #purge(now: number) {
    const before = now - this.#settings.retentionDays * 86_400_000;
    for (const stored of (await this.#messages()).values()) {
      if (stored.state === 'given_up' && (stored.givenUpAt ?? now) <= before) {
        await this.#storage.delete(MESSAGE + stored.id);
        await this.#changeUsage(-1, -recordBytes(stored));
      }
    }
  }

  /** The alarm at the next try, or at the next given-up message's removal; none when empty. */
  async #scheduleNext() {
    const retention = this.#settings.retentionDays * 86_400_000;
    const times = [...(await this.#messages()).values()].map((stored) =>
      stored.state === 'waiting'
        ? (stored.nextTryAt ?? Date.now())
        : (stored.givenUpAt ?? Date.now()) + retention,
    );
    if (times.length === 0) await this.#storage.deleteAlarm();
    else await this.#storage.setAlarm(Math.min(...times));
  }

  async #alarmBy(time: number) {
    const current = await this.#storage.getAlarm();
    if (current === null || current > time) await this.#storage.setAlarm(time);
  }

  #messages() {
    return this.#storage.list<Stored>({ prefix: MESSAGE });
  }

  #put(stored: Stored) {
    return this.#storage.put(MESSAGE + stored.id, stored);
  }

  async #usage(): Promise<Usage> {
    return (await this.#storage.get<Usage>(USAGE)) ?? { count: 0, bytes: 0 };
  }

  async #changeUsage(count: number, bytes: number) {
    const usage = await this.#usage();
    await this.#storage.put(USAGE, { count: usage.count + count, bytes: usage.bytes + bytes });
  }
}

/** What the object delivers with: the Worker's own SITEBEAM_API_URL and SITEBEAM_API_TOKEN. */
function deliveryFromEnv(
  env: Record<string, string>,
  settings: ResolvedOutboxSettings,
): OutboxDelivery {
  const read = envReader(env, { apiUrl: 'SITEBEAM_API_URL', apiToken: 'SITEBEAM_API_TOKEN' });
  const apiUrl = read.required('apiUrl');
  const apiToken = read.required('apiToken');
  const problem = baseUrlProblem(apiUrl);
  if (problem) throw new Error(`SITEBEAM_API_URL ${problem}`);
  return createDelivery({
    apiUrl,
    apiToken,
    apiTimeoutMs: 10_000,
    log: safeLog((line) => console.error(line), apiToken),
    settings,
  });
}

/**
 * The relay's `outbox` option on Workers: the `SitebeamOutbox` Durable Object bound as `namespace`
 * keeps and delivers the messages (one object for the whole Worker, every isolate using it).
 */
export function durableObjectOutbox(namespace: OutboxNamespaceLike): OutboxStore {
  return () => {
    const call = async (path: string, body?: object) => {
      const object = namespace.get(namespace.idFromName('outbox') as never);
      const response = await object.fetch(`${ORIGIN}${path}`, {
        method: body ? 'POST' : 'GET',
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      if (!response.ok) throw new Error(`the outbox's Durable Object answered ${response.status}`);
      return (await response.json()) as Record<string, unknown>;
    };
    const outbox: Outbox = {
      description: 'the Durable Object SitebeamOutbox',
      async keep(message) {
        const { id } = await call('/keep', { message });
        return typeof id === 'string' ? id : undefined;
      },
      list: async () => (await call('/list')).messages as OutboxEntry[],
      retry: async (id) => (await call('/retry', { id })).change as OutboxChange,
      remove: async (id) => (await call('/remove', { id })).change as OutboxChange,
      async drain() {
        await call('/drain', {});
      },
      close: async () => undefined,
    };
    return outbox;
  };
}
