/// <reference types="node" />
// The outbox in Redis or Valkey, shared by every relay given the same SITEBEAM_REDIS_URL.
//
// Each try of a message is one entry of a stream read by the consumer group `relays`: XADD puts the
// try there, XREADGROUP gives it to one relay, XACK and XDEL end it once its outcome is written, and
// XAUTOCLAIM gives a try left unfinished for a minute (its relay died mid-send) to another relay.
// A stream has no "not before", and a message waiting an hour for its next try cannot sit in a
// relay's pending list without looking dead to XAUTOCLAIM; so between tries a message waits in a
// sorted set scored by its next try (as BullMQ's and Sidekiq's delayed sets do), and a script moves
// what is due into the stream, each due message once, whichever relay runs it. The message itself
// is one field of a hash, so that the owner's list, retry and delete find it by id whatever it is
// doing. Every change is one Lua script (atomic): the cap is checked as the message is stored, and
// only the relay still holding a try writes its outcome.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { createClient } from 'redis';
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
} from './outbox.js';

export interface RedisOutboxOptions {
  /** redis:// or rediss:// */
  url: string;
  /** The store without its password, e.g. `Redis at redis://cache:6379`. */
  name: string;
  /** Milliseconds between looks at the store while nothing is due (default 2,000). */
  pollMs?: number;
}

// One hash tag, so that every key of a script is on the same node of a Redis Cluster.
const prefix = '{sitebeam-outbox}';
const keys = {
  messages: `${prefix}:messages`,
  due: `${prefix}:due`,
  givenUp: `${prefix}:given-up`,
  bytes: `${prefix}:bytes`,
  tries: `${prefix}:tries`,
  paused: `${prefix}:paused`,
};
const GROUP = 'relays';
const BATCH = 20;
const CONNECT_TIMEOUT_MS = 2_000;

// Stores a message unless the cap (count or bytes) is reached: 1 kept, 0 full.
const KEEP = `
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
local used = tonumber(redis.call('GET', KEYS[3]) or '0')
if used + string.len(ARGV[2]) > tonumber(ARGV[5]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('INCRBY', KEYS[3], string.len(ARGV[2]))
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 1
`;

// Moves due messages into the stream, one try entry each, unless delivery is paused.
const MOVE_DUE = `
if redis.call('EXISTS', KEYS[3]) == 1 then return 0 end
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, id in ipairs(ids) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('XADD', KEYS[2], '*', 'id', id)
end
return #ids
`;

// Ends a try: only the consumer still holding it (not taken over by XAUTOCLAIM) writes its outcome.
// ARGV: group, consumer, entry id, message id, action (delete | wait | give_up | forget), record, score.
const FINISH = `
local held = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[3], ARGV[3], 1, ARGV[2])
if #held == 0 then return 0 end
redis.call('XACK', KEYS[1], ARGV[1], ARGV[3])
redis.call('XDEL', KEYS[1], ARGV[3])
local old = redis.call('HGET', KEYS[2], ARGV[4])
if not old or ARGV[5] == 'forget' then return 1 end
if ARGV[5] == 'delete' then
  redis.call('HDEL', KEYS[2], ARGV[4])
  redis.call('DECRBY', KEYS[5], string.len(old))
  return 1
end
redis.call('HSET', KEYS[2], ARGV[4], ARGV[6])
redis.call('INCRBY', KEYS[5], string.len(ARGV[6]) - string.len(old))
if ARGV[5] == 'wait' then
  redis.call('ZADD', KEYS[3], ARGV[7], ARGV[4])
else
  redis.call('ZADD', KEYS[4], ARGV[7], ARGV[4])
end
return 1
`;

// The owner's retry: a waiting or given-up message, unchanged since it was read, is due now.
const RETRY = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return 'not_found' end
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) and not redis.call('ZSCORE', KEYS[3], ARGV[1]) then return 'busy' end
if current ~= ARGV[2] then return 'busy' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('INCRBY', KEYS[4], string.len(ARGV[3]) - string.len(current))
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
redis.call('DEL', KEYS[5])
return 'done'
`;

// The owner's delete, and the purge of given-up messages past their retention.
const REMOVE = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return 'not_found' end
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) and not redis.call('ZSCORE', KEYS[3], ARGV[1]) then return 'busy' end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('DECRBY', KEYS[4], string.len(current))
return 'done'
`;

const PURGE = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, 500)
for _, id in ipairs(ids) do
  local current = redis.call('HGET', KEYS[1], id)
  if current then
    redis.call('HDEL', KEYS[1], id)
    redis.call('DECRBY', KEYS[3], string.len(current))
  end
  redis.call('ZREM', KEYS[2], id)
end
return #ids
`;

// The instance is back: every waiting message is due now, and delivery is no longer paused.
const DRAIN = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf')
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], ARGV[1], id) end
redis.call('DEL', KEYS[2])
return #ids
`;

type Reply = unknown;
interface StreamEntry {
  entryId: string;
  id: string;
}

/** The outbox store for the relay's `outbox` option: delivery runs in this process. */
export function redisOutbox(options: RedisOutboxOptions): OutboxStore {
  return (delivery) => openRedisOutbox(options, delivery);
}

/**
 * The outbox in Redis. Given `delivery`, this process also delivers (with every other relay on
 * the same Redis); without it (the `sitebeam-relay outbox` command), it only lists and changes.
 */
export function openRedisOutbox(options: RedisOutboxOptions, delivery?: OutboxDelivery): Outbox {
  const client = createClient({
    url: options.url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2_000),
    },
  });
  // Failures reach the callers through rejected commands (an unheard 'error' would end the
  // process); the last one says why while the client is not connected.
  let connectionError = '';
  client.on('error', (error: unknown) => {
    connectionError = error instanceof Error ? error.message : String(error);
  });
  const connecting = client.connect().catch(() => undefined);
  const firstConnection = Promise.race([
    connecting,
    new Promise((resolve) => setTimeout(resolve, CONNECT_TIMEOUT_MS).unref()),
  ]);
  const command = async (args: string[]): Promise<Reply> => {
    await firstConnection;
    if (!client.isReady) throw new Error(`not connected (${connectionError || 'connecting'})`);
    return client.sendCommand(args);
  };
  const script = (source: string, scriptKeys: string[], args: Array<string | number>) =>
    command(['EVAL', source, String(scriptKeys.length), ...scriptKeys, ...args.map(String)]);

  const worker = delivery ? startWorker(options, delivery, command, script) : undefined;

  return {
    description: `${options.name} (Redis Streams)`,
    async keep(message: NewMessage) {
      if (!delivery) throw new Error('this outbox only lists and changes messages');
      const { settings } = delivery;
      const now = Date.now();
      const record: OutboxRecord = {
        id: randomUUID(),
        mail: message.mail,
        acceptedAt: now,
        tries: message.tries,
        ...(message.lastError === undefined ? {} : { lastError: message.lastError }),
      };
      const kept = await script(
        KEEP,
        [keys.messages, keys.due, keys.bytes],
        [
          record.id,
          JSON.stringify(record),
          now + message.delayMs,
          settings.maxMessages,
          settings.maxBytes,
        ],
      );
      if (Number(kept) !== 1) return undefined;
      worker?.wake();
      return record.id;
    },
    async list() {
      const [records, due, givenUp] = await Promise.all([
        command(['HGETALL', keys.messages]),
        command(['ZRANGE', keys.due, '0', '-1', 'WITHSCORES']),
        command(['ZRANGE', keys.givenUp, '0', '-1', 'WITHSCORES']),
      ]);
      const dueAt = pairs(due);
      const givenUpAt = pairs(givenUp);
      const entries: OutboxEntry[] = [];
      for (const [id, raw] of pairs(records)) {
        const record = JSON.parse(raw) as OutboxRecord;
        const nextTryAt = dueAt.get(id);
        const gaveUp = givenUpAt.get(id);
        const state =
          nextTryAt !== undefined ? 'waiting' : gaveUp !== undefined ? 'given_up' : 'sending';
        entries.push(
          entryOf(record, state, {
            nextTryAt: nextTryAt === undefined ? undefined : Number(nextTryAt),
            givenUpAt: gaveUp === undefined ? undefined : Number(gaveUp),
          }),
        );
      }
      return entries.sort((a, b) => a.acceptedAt - b.acceptedAt);
    },
    async retry(id) {
      const current = await command(['HGET', keys.messages, id]);
      if (typeof current !== 'string') return 'not_found';
      const now = Date.now();
      const record: OutboxRecord = { ...(JSON.parse(current) as OutboxRecord), retriedAt: now };
      const answer = await script(
        RETRY,
        [keys.messages, keys.due, keys.givenUp, keys.bytes, keys.paused],
        [id, current, JSON.stringify(record), now],
      );
      worker?.wake();
      return String(answer) as OutboxChange;
    },
    async remove(id) {
      const answer = await script(
        REMOVE,
        [keys.messages, keys.due, keys.givenUp, keys.bytes],
        [id],
      );
      return String(answer) as OutboxChange;
    },
    async drain() {
      await script(DRAIN, [keys.due, keys.paused], [Date.now()]);
      worker?.wake();
    },
    async close() {
      await worker?.stop();
      // Destroyed first: a client that cannot connect (Redis down, a wrong password) retries forever.
      if (client.isOpen) client.destroy();
      await connecting;
    },
  };
}

type Command = (args: string[]) => Promise<Reply>;
type Script = (source: string, keys: string[], args: Array<string | number>) => Promise<Reply>;

/** This relay's share of the delivery: moves due messages, takes tries, writes their outcome. */
function startWorker(
  options: RedisOutboxOptions,
  delivery: OutboxDelivery,
  command: Command,
  script: Script,
) {
  const { settings, log } = delivery;
  const consumer = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const pollMs = options.pollMs ?? 2_000;
  const claimEveryMs = Math.min(15_000, settings.claimIdleMs / 4);
  const recovery = createRecoveryWatch();
  let stopped = false;
  let wakeUp: (() => void) | undefined;
  let storeDown = false;

  const idle = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const ensureGroup = async () => {
    try {
      await command(['XGROUP', 'CREATE', keys.tries, GROUP, '0', 'MKSTREAM']);
    } catch (error) {
      if (!String(error).includes('BUSYGROUP')) throw error;
    }
  };

  const finish = (entry: StreamEntry, decision: Decision | { action: 'forget' }) => {
    const record = 'record' in decision ? JSON.stringify(decision.record) : '';
    const score =
      decision.action === 'wait'
        ? decision.nextTryAt
        : decision.action === 'give_up'
          ? decision.givenUpAt
          : 0;
    return script(
      FINISH,
      [keys.tries, keys.messages, keys.due, keys.givenUp, keys.bytes],
      [GROUP, consumer, entry.entryId, entry.id, decision.action, record, score],
    );
  };

  /** Tries each entry in turn; stops early when the instance is down and puts the rest back. */
  const runTries = async (entries: StreamEntry[]) => {
    const guard = createRunGuard(settings);
    for (const [index, entry] of entries.entries()) {
      const raw = await command(['HGET', keys.messages, entry.id]);
      if (typeof raw !== 'string') {
        await finish(entry, { action: 'forget' });
        continue;
      }
      const record = JSON.parse(raw) as OutboxRecord;
      const tried = await tryDue(record, delivery);
      if (!tried) continue;
      const { decision, outcome } = tried;
      // 0: another relay took the try over meanwhile and will write its own outcome.
      if (Number(await finish(entry, decision)) === 1)
        log(decisionLine(entry.id, decision, record.tries));
      if (!outcome) continue;
      if (recovery.recovered(outcome)) await script(DRAIN, [keys.due, keys.paused], [Date.now()]);
      if (guard.stop(outcome)) {
        const pausedMs = settings.breakerS * 1000;
        await command(['SET', keys.paused, '1', 'PX', String(pausedMs)]);
        const later = Date.now() + pausedMs;
        for (const rest of entries.slice(index + 1)) {
          const kept = await command(['HGET', keys.messages, rest.id]);
          if (typeof kept !== 'string') await finish(rest, { action: 'forget' });
          else {
            const unchanged = JSON.parse(kept) as OutboxRecord;
            await finish(rest, { action: 'wait', record: unchanged, nextTryAt: later });
          }
        }
        log(pausedLine(settings));
        return;
      }
    }
  };

  const purge = async (now: number) => {
    await script(
      PURGE,
      [keys.messages, keys.givenUp, keys.bytes],
      [now - settings.retentionDays * 86_400_000],
    );
    // Relays that died leave their names in the group: forgotten once idle a day with nothing held.
    const consumers = await command(['XINFO', 'CONSUMERS', keys.tries, GROUP]);
    for (const info of Array.isArray(consumers) ? consumers : []) {
      const fields = pairs(info);
      const name = fields.get('name');
      if (
        name &&
        name !== consumer &&
        fields.get('pending') === '0' &&
        Number(fields.get('idle')) > 86_400_000
      ) {
        await command(['XGROUP', 'DELCONSUMER', keys.tries, GROUP, name]);
      }
    }
  };

  const loop = async () => {
    let lastClaim = 0;
    let lastPurge = 0;
    let groupReady = false;
    let running = false;
    while (!stopped) {
      try {
        if (!groupReady) {
          await ensureGroup();
          groupReady = true;
        }
        const now = Date.now();
        if (now - lastPurge >= 60_000) {
          await purge(now);
          lastPurge = now;
        }
        await script(MOVE_DUE, [keys.due, keys.tries, keys.paused], [now, BATCH]);
        const entries: StreamEntry[] = [];
        if (now - lastClaim >= claimEveryMs) {
          lastClaim = now;
          const claimed = await command([
            'XAUTOCLAIM',
            keys.tries,
            GROUP,
            consumer,
            String(settings.claimIdleMs),
            '0-0',
            'COUNT',
            String(BATCH),
          ]);
          entries.push(...streamEntries((claimed as unknown[])[1]));
        }
        const read = await command([
          'XREADGROUP',
          'GROUP',
          GROUP,
          consumer,
          'COUNT',
          String(BATCH),
          'STREAMS',
          keys.tries,
          '>',
        ]);
        entries.push(...readEntries(read));
        if (storeDown) {
          storeDown = false;
          log(`sitebeam-relay: outbox: ${options.name} answers again; delivery resumes.`);
        }
        if (!running) {
          running = true;
          log(`sitebeam-relay: outbox: delivering from ${options.name} as consumer ${consumer}.`);
        }
        if (entries.length > 0) {
          await runTries(entries);
          continue;
        }
      } catch (error) {
        // A Redis restarted empty has lost the group too.
        if (String(error).includes('NOGROUP')) groupReady = false;
        if (!storeDown && !stopped) {
          storeDown = true;
          log(
            `sitebeam-relay: outbox: ${options.name} failed (${error instanceof Error ? error.message : String(error)}); delivery waits until it answers.`,
          );
        }
      }
      if (!stopped) await idle(pollMs);
    }
  };

  const looping = loop();
  void command(['INFO', 'persistence']).then(
    (info) => {
      if (/aof_enabled:0/.test(String(info))) {
        log(
          `sitebeam-relay: outbox: ${options.name} has appendonly off: a restart of Redis itself keeps only its last snapshot of the outbox (turn on appendonly to keep every message).`,
        );
      }
    },
    () => undefined,
  );
  return {
    wake: () => wakeUp?.(),
    async stop() {
      stopped = true;
      wakeUp?.();
      await looping;
    },
  };
}

// The client hands some replies over as Redis sent them (flat arrays) and others as objects (the
// map-shaped ones: HGETALL, XINFO, XREADGROUP): the readers below take both.

/** A flat [key, value, key, value…] reply, [[key, value]…] or an object, as a Map. */
function pairs(reply: unknown): Map<string, string> {
  const map = new Map<string, string>();
  if (reply !== null && typeof reply === 'object' && !Array.isArray(reply)) {
    for (const [key, value] of Object.entries(reply)) map.set(key, String(value));
    return map;
  }
  if (!Array.isArray(reply)) return map;
  if (reply.every((item) => Array.isArray(item) && item.length === 2)) {
    for (const [key, value] of reply as Array<[unknown, unknown]>)
      map.set(String(key), String(value));
    return map;
  }
  for (let index = 0; index + 1 < reply.length; index += 2) {
    map.set(String(reply[index]), String(reply[index + 1]));
  }
  return map;
}

/** The entries of XREADGROUP's reply for its one stream: [[name, entries]] or {name: entries}. */
function readEntries(reply: unknown): StreamEntry[] {
  if (Array.isArray(reply)) return streamEntries((reply[0] as unknown[] | undefined)?.[1]);
  if (reply !== null && typeof reply === 'object') return streamEntries(Object.values(reply)[0]);
  return [];
}

/** Stream entries [[entryId, [field, value…]]…] as the message id each try is for. */
function streamEntries(reply: unknown): StreamEntry[] {
  if (!Array.isArray(reply)) return [];
  return reply.flatMap((entry) => {
    if (!Array.isArray(entry) || !Array.isArray(entry[1])) return [];
    const id = pairs(entry[1]).get('id');
    return id ? [{ entryId: String(entry[0]), id }] : [];
  });
}
