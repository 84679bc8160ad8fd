// Two real `sitebeam-relay` processes sharing Debian's redis-server, the real stub as the API: a
// visitor's allowance holds across both, and when Redis stops the relays keep accepting mail,
// count in memory, say so once, and go back to Redis by themselves when it is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RunningRedis,
  redisServerBinary,
  startRedis,
} from '../../../tests/support/redis-server.ts';
import { type RunningStub, startStub } from '../../../tests/support/stub-server.ts';
import { createTicketIssuer, ticketKey } from '../../src/relay/ticket.js';
import { type RunningRelay, relayEnv, testSite as site, startRelay } from './start-relay.ts';

const limit = 4;
const chatLimit = 3;
const storeDown = /rate-limit store \(Redis at redis:\/\/127\.0\.0\.1:\d+\) failed/g;
const storeBack = /rate-limit store \(Redis at redis:\/\/127\.0\.0\.1:\d+\) answers again/g;

let stub: RunningStub;
let redis: RunningRedis;
let relays: RunningRelay[] = [];

if (!redisServerBinary) {
  console.warn('SKIPPED: redis-server is not installed (tests/support/system-deps.sh installs it)');
}

describe.skipIf(!redisServerBinary)('two relays sharing redis-server', () => {
  beforeAll(async () => {
    [stub, redis] = await Promise.all([startStub(), startRedis()]);
    const env = relayEnv(stub.url, {
      SITEBEAM_TICKET_SECRET: 'test-secret',
      SITEBEAM_RATE_LIMIT: String(limit),
      SITEBEAM_RATE_LIMIT_WINDOW_S: '600',
      SITEBEAM_CHAT_MODELS: 'tinyllama',
      SITEBEAM_CHAT_RATE_LIMIT_PER_MINUTE: String(chatLimit),
      SITEBEAM_CLIENT_IP_HEADER: 'x-forwarded-for',
      SITEBEAM_REDIS_URL: redis.url,
    });
    relays = await Promise.all([startRelay(env), startRelay(env)]);
  }, 30_000);
  afterAll(async () => {
    await Promise.all([...relays.map((relay) => relay.stop()), stub?.stop(), redis?.close()]);
  });

  const ticket = createTicketIssuer(ticketKey('test-secret', ''), 0).issue(Date.now() - 5000);

  async function send(relay: RunningRelay, visitor: string, path = '/contact') {
    const message = {
      name: 'Ada',
      email: 'ada@example.com',
      subject: 'Hello',
      message: `From ${visitor}`,
      ticket: await ticket,
    };
    const response = await fetch(`${relay.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: site, 'x-forwarded-for': visitor },
      body: JSON.stringify(path === '/contact' ? message : {}),
    });
    await response.arrayBuffer();
    return { status: response.status, retryAfter: response.headers.get('retry-after') };
  }

  /** Posts `count` times from `visitor`, alternating between the two relays: the statuses. */
  async function alternate(visitor: string, count: number, path?: string) {
    const statuses: number[] = [];
    for (let post = 0; post < count; post += 1) {
      statuses.push((await send(relays[post % 2] as RunningRelay, visitor, path)).status);
    }
    return statuses;
  }

  async function delivered(visitor: string): Promise<number> {
    const { emails } = (await (await fetch(`${stub.url}/__stub/emails`)).json()) as {
      emails: Array<{ message: { text?: string; html?: string } }>;
    };
    return emails.filter((email) => JSON.stringify(email.message).includes(`From ${visitor}`))
      .length;
  }

  it('give a visitor one allowance across both: the limit accepted in total, the next refused on either', async () => {
    expect(await alternate('203.0.113.10', limit)).toEqual(Array(limit).fill(200));
    for (const relay of relays) {
      const refused = await send(relay, '203.0.113.10');
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(590);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(600);
    }
    expect(await delivered('203.0.113.10')).toBe(limit);
    // Another visitor has an allowance of their own.
    expect((await send(relays[1] as RunningRelay, '203.0.113.11')).status).toBe(200);
  });

  it('count an IPv6 visitor per /64 across both', async () => {
    const statuses = [];
    for (let post = 0; post <= limit; post += 1) {
      const visitor = `2001:db8:7:8::${(post + 1).toString(16)}`;
      statuses.push((await send(relays[post % 2] as RunningRelay, visitor)).status);
    }
    expect(statuses).toEqual([...Array(limit).fill(200), 429]);
    expect((await send(relays[0] as RunningRelay, '2001:db8:7:9::1')).status).toBe(200);
  });

  it('share the chat limit too, apart from the contact form’s', async () => {
    const statuses = await alternate('203.0.113.20', chatLimit + 2, '/chat');
    expect(statuses.slice(0, chatLimit).every((status) => status !== 429)).toBe(true);
    expect(statuses.slice(chatLimit)).toEqual([429, 429]);
    expect((await send(relays[0] as RunningRelay, '203.0.113.20')).status).toBe(200);
  });

  it('keep accepting mail while Redis is down, say so once per outage, and go back to it by themselves', async () => {
    await redis.stop();
    // Counted in memory, each relay alone: the limit on each, never a 5xx.
    const during = await alternate('203.0.113.30', 2 * limit + 2);
    expect(during).toEqual([...Array(2 * limit).fill(200), 429, 429]);
    for (const relay of relays) expect(relay.output().match(storeDown)).toHaveLength(1);

    await redis.start();
    // A relay finds Redis back at its next count: one post at a time, each from a new visitor.
    let visitor = 0;
    for (const relay of relays) {
      const counted = async () => {
        expect((await send(relay, `198.51.100.${++visitor}`)).status).toBe(200);
        return relay.output().match(storeBack)?.length ?? 0;
      };
      await expect.poll(counted, { timeout: 10_000, interval: 200 }).toBe(1);
    }
    for (const relay of relays) {
      expect(relay.output().match(storeDown)).toHaveLength(1);
      expect(relay.output().match(storeBack)).toHaveLength(1);
    }
    // Shared again: a new visitor's allowance holds across both.
    expect(await alternate('203.0.113.32', limit + 2)).toEqual([
      ...Array(limit).fill(200),
      429,
      429,
    ]);
  });
});
