// The Redis outbox against Debian's redis-server, with deliveries this test controls: kept, listed,
// delivered and removed at once; the caps; two relays sharing the queue, each message once; a
// message that keeps failing holds no other; a try left unfinished taken over; retry and delete;
// the lifetime and the retention.
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type RunningRedis,
  redisServerBinary,
  startRedis,
} from '../../../../tests/support/redis-server.ts';
import type { EmailMessage } from '../../../src/client/index.js';
import type {
  Outbox,
  OutboxDelivery,
  OutboxRecord,
  TryOutcome,
} from '../../../src/relay/outbox/outbox.js';
import { openRedisOutbox } from '../../../src/relay/outbox/redis-outbox.js';
import { resolveOutboxSettings } from '../../../src/relay/outbox/settings.js';

/** How long a test waits for what a process does on its own clock, and how often it looks. */
const poll = { timeout: 15_000, interval: 200 };

const mail = (text: string): EmailMessage => ({
  to: 'owner@shop.example',
  from: 'forms@shop.example',
  subject: `[Shop] ${text}`,
  content: `<p>${text}</p>`,
});

describe.skipIf(!redisServerBinary)('the Redis outbox', () => {
  let redis: RunningRedis;
  const open: Outbox[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((outbox) => outbox.close()));
    const client = createClient({ url: redis.url });
    await client.connect();
    await client.flushAll();
    client.destroy();
  });
  afterAll(() => redis?.close());

  /** A relay's outbox whose sends answer as `answer` says, recording what it was asked to send. */
  function relay(
    answer: (mail: EmailMessage) => TryOutcome | Promise<TryOutcome>,
    overrides: Partial<OutboxDelivery['settings']> = {},
  ) {
    const sent: string[] = [];
    const lines: string[] = [];
    const delivery: OutboxDelivery = {
      settings: { ...resolveOutboxSettings({ firstRetryS: 1 }), ...overrides },
      log: (line) => lines.push(line),
      async send(message) {
        sent.push(message.subject);
        return answer(message);
      },
    };
    const outbox = openRedisOutbox({ url: redis.url, name: 'test Redis', pollMs: 100 }, delivery);
    open.push(outbox);
    return { outbox, sent, lines };
  }

  const delivered = (): TryOutcome => ({ kind: 'sent' });
  const down = (): TryOutcome => ({
    kind: 'passing',
    status: 503,
    error: 'the instance answered 503',
    instanceDown: true,
  });

  it('keeps a message, lists it waiting, delivers it when due and removes it at once', async () => {
    let instanceUp = false;
    const { outbox, sent, lines } = relay(() => (instanceUp ? delivered() : down()));
    const id = await outbox.keep({
      mail: mail('Hello'),
      tries: 1,
      lastError: 'the instance answered 503',
      delayMs: 60_000,
    });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const [entry] = await outbox.list();
    expect(entry).toMatchObject({
      id,
      state: 'waiting',
      to: 'owner@shop.example',
      subject: '[Shop] Hello',
      tries: 1,
      lastError: 'the instance answered 503',
    });
    expect(entry?.nextTryAt).toBeGreaterThan(Date.now() + 50_000);
    instanceUp = true;
    expect(await outbox.retry(id as string)).toBe('done');
    await expect.poll(async () => (await outbox.list()).length === 0, poll).toBe(true);
    expect(sent).toEqual(['[Shop] Hello']);
    expect(lines.join('\n')).toContain(`message ${id} delivered`);
    // Nothing of the message is left in Redis.
    const client = createClient({ url: redis.url });
    await client.connect();
    expect(await client.hLen('{sitebeam-outbox}:messages')).toBe(0);
    expect(await client.get('{sitebeam-outbox}:bytes')).toBe('0');
    expect(await client.xLen('{sitebeam-outbox}:tries')).toBe(0);
    client.destroy();
  });

  it('refuses to keep beyond its cap in count and in bytes', async () => {
    const { outbox } = relay(down, { maxMessages: 2 });
    const later = { tries: 1, delayMs: 600_000 };
    expect(await outbox.keep({ mail: mail('one'), ...later })).toBeDefined();
    expect(await outbox.keep({ mail: mail('two'), ...later })).toBeDefined();
    expect(await outbox.keep({ mail: mail('three'), ...later })).toBeUndefined();
    await Promise.all(open.splice(0).map((o) => o.close()));

    const small = relay(down, { maxBytes: 2_000 }).outbox;
    const big = { ...mail('big'), content: 'x'.repeat(1_500) };
    expect(await small.keep({ mail: mail('some'), ...later })).toBeDefined();
    expect(await small.keep({ mail: big, ...later })).toBeUndefined();
  });

  it('shares the queue between two relays: 40 messages, each delivered once, by both', async () => {
    const first = relay(delivered);
    const second = relay(delivered);
    for (let n = 0; n < 40; n += 1) {
      await (n % 2 ? first : second).outbox.keep({ mail: mail(`m${n}`), tries: 1, delayMs: 0 });
    }
    await expect.poll(() => first.sent.length + second.sent.length >= 40, poll).toBe(true);
    await expect.poll(async () => (await first.outbox.list()).length === 0, poll).toBe(true);
    const all = [...first.sent, ...second.sent].sort();
    expect(all).toEqual(Array.from({ length: 40 }, (_, n) => `[Shop] m${n}`).sort());
    expect(first.sent.length).toBeGreaterThan(0);
    expect(second.sent.length).toBeGreaterThan(0);
  });

  it('lets a message that keeps failing hold no other', async () => {
    const { outbox, sent } = relay((message) =>
      message.subject.includes('poison')
        ? { kind: 'passing', status: 500, error: 'the instance answered 500', instanceDown: false }
        : delivered(),
    );
    const poison = await outbox.keep({ mail: mail('poison'), tries: 1, delayMs: 0 });
    for (let n = 0; n < 5; n += 1) {
      await outbox.keep({ mail: mail(`fine ${n}`), tries: 1, delayMs: 0 });
    }
    await expect
      .poll(() => sent.filter((subject) => subject.includes('fine')).length === 5, poll)
      .toBe(true);
    const left = await outbox.list();
    expect(left.map((entry) => entry.id)).toEqual([poison]);
    expect(left[0]?.tries).toBeGreaterThanOrEqual(2);
  });

  it('hands a try its relay left unfinished to another relay, which delivers it; the late outcome changes nothing', async () => {
    let finishHung: (outcome: TryOutcome) => void = () => undefined;
    const hung = relay(() => new Promise<TryOutcome>((resolve) => (finishHung = resolve)), {
      claimIdleMs: 1_000,
    });
    const id = await hung.outbox.keep({ mail: mail('stuck'), tries: 1, delayMs: 0 });
    await expect.poll(() => hung.sent.length === 1, poll).toBe(true);
    expect((await hung.outbox.list())[0]?.state).toBe('sending');
    const rescuer = relay(delivered, { claimIdleMs: 1_000 });
    await expect.poll(() => rescuer.sent.length === 1, poll).toBe(true);
    await expect.poll(async () => (await rescuer.outbox.list()).length === 0, poll).toBe(true);
    // The hung try ends after all: its relay no longer holds it and writes nothing.
    finishHung(down());
    await hung.outbox.close();
    expect(await rescuer.outbox.list()).toEqual([]);
    expect(rescuer.lines.join('\n')).toContain(`message ${id} delivered`);
  });

  it('answers busy while a message is being sent, not_found for an unknown one', async () => {
    let finish: (outcome: TryOutcome) => void = () => undefined;
    const { outbox, sent } = relay(() => new Promise<TryOutcome>((resolve) => (finish = resolve)));
    const id = (await outbox.keep({ mail: mail('slow'), tries: 1, delayMs: 0 })) as string;
    await expect.poll(() => sent.length === 1, poll).toBe(true);
    expect(await outbox.remove(id)).toBe('busy');
    expect(await outbox.retry(id)).toBe('busy');
    finish(down());
    await expect.poll(async () => (await outbox.list())[0]?.state === 'waiting', poll).toBe(true);
    expect(await outbox.remove(id)).toBe('done');
    expect(await outbox.list()).toEqual([]);
    expect(await outbox.remove(id)).toBe('not_found');
    expect(await outbox.retry('00000000-0000-4000-8000-000000000000')).toBe('not_found');
  });

  it('gives up a refused message at once and keeps it visible; a retry delivers it', async () => {
    let refuse = true;
    const { outbox, sent } = relay(() =>
      refuse ? { kind: 'refused', status: 422, error: 'the instance answered 422' } : delivered(),
    );
    const id = (await outbox.keep({ mail: mail('refused'), tries: 1, delayMs: 0 })) as string;
    await expect.poll(async () => (await outbox.list())[0]?.state === 'given_up', poll).toBe(true);
    const [entry] = await outbox.list();
    expect(entry?.lastError).toBe('refused for good: the instance answered 422');
    expect(entry?.givenUpAt).toBeGreaterThan(Date.now() - 60_000);
    refuse = false;
    expect(await outbox.retry(id)).toBe('done');
    await expect.poll(async () => (await outbox.list()).length === 0, poll).toBe(true);
    expect(sent).toEqual(['[Shop] refused', '[Shop] refused']);
  });

  it('gives up a message past its lifetime without sending it, and removes given-up ones after the retention', async () => {
    const now = Date.now();
    const client = createClient({ url: redis.url });
    await client.connect();
    const old = (id: string, acceptedAt: number): OutboxRecord => ({
      id,
      mail: mail(id),
      acceptedAt,
      tries: 5,
      lastError: 'the instance answered 503',
    });
    const expired = JSON.stringify(old('expired', now - 73 * 3_600_000));
    const gone = JSON.stringify(old('gone', now - 20 * 86_400_000));
    await client.hSet('{sitebeam-outbox}:messages', { expired, gone });
    await client.set('{sitebeam-outbox}:bytes', String(expired.length + gone.length));
    await client.zAdd('{sitebeam-outbox}:due', { score: now, value: 'expired' });
    await client.zAdd('{sitebeam-outbox}:given-up', { score: now - 8 * 86_400_000, value: 'gone' });
    client.destroy();

    const { outbox, sent } = relay(delivered);
    await expect
      .poll(async () => {
        const entries = await outbox.list();
        return entries.length === 1 && entries[0]?.state === 'given_up';
      }, poll)
      .toBe(true);
    const [entry] = await outbox.list();
    expect(entry).toMatchObject({
      id: 'expired',
      lastError: 'not delivered within 72 hours; last: the instance answered 503',
    });
    expect(sent).toEqual([]);
  });

  it('refuses to keep while Redis is down, so the visitor is asked to try again', async () => {
    const { outbox } = relay(down);
    await redis.stop();
    try {
      await expect(outbox.keep({ mail: mail('lost?'), tries: 1, delayMs: 0 })).rejects.toThrow();
    } finally {
      await redis.start();
    }
  });
});
