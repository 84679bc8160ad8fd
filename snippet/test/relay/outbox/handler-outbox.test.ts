// The contact handler with an outbox, against a recording fake API and a recording store: which
// failures are kept (202 queued, or 303 for a form), which are not (a refusal for good, a full or
// unreachable store: "try again"), the breaker, the drain after an outage, a log without bodies,
// and the authenticated admin route.
import { describe, expect, it, vi } from 'vitest';
import {
  createRelayHandler,
  type Outbox,
  type OutboxStore,
  type RelayConfig,
} from '../../../src/relay/index.js';
import type { NewMessage, OutboxDelivery } from '../../../src/relay/outbox/outbox.js';
import { site, ticketedShopConfig, visitor } from '../shop-relay.js';

const secret = 'admin-secret-for-the-tests-0123456789';

/** The API's answer to each send, in turn (an Error: no answer at all). */
type Answer = Response | Error;
const failure = (status: number, headers: Record<string, string> = {}) =>
  Response.json({ status: 'ko', error: 'fault', i18n_code: `http_${status}` }, { status, headers });
const sent = () => Response.json({ status: 'ok', id: 'mail-1' });

function relay(
  answers: Answer[],
  store: Partial<Outbox> | null = {},
  overrides: Partial<RelayConfig> = {},
) {
  const kept: NewMessage[] = [];
  const calls = { drain: 0, retry: [] as string[], remove: [] as string[] };
  const log = vi.fn();
  let delivery: OutboxDelivery | undefined;
  const outbox: OutboxStore = (given) => {
    delivery = given;
    return {
      description: 'a recording store',
      keep: async (message) => {
        kept.push(message);
        return `00000000-0000-4000-8000-00000000000${kept.length}`;
      },
      list: async () => [],
      retry: async (id) => {
        calls.retry.push(id);
        return 'done';
      },
      remove: async (id) => {
        calls.remove.push(id);
        return id.endsWith('9') ? 'busy' : 'not_found';
      },
      drain: async () => {
        calls.drain += 1;
      },
      close: async () => undefined,
      ...store,
    };
  };
  const fetch = vi.fn(async () => {
    const answer = answers.shift() ?? sent();
    if (answer instanceof Error) throw answer;
    return answer;
  });
  const handler = createRelayHandler({
    ...ticketedShopConfig,
    fetch: fetch as typeof globalThis.fetch,
    log,
    ...(store === null ? {} : { outbox }),
    ...overrides,
  });
  return { handler, kept, calls, log, fetch, delivery: () => delivery };
}

const post = (body: object = visitor, headers: Record<string, string> = {}) =>
  new Request(`${site}/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: site, ...headers },
    body: JSON.stringify(body),
  });

const form = () =>
  new Request(`${site}/contact`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: site,
      referer: `${site}/contact-us`,
    },
    body: new URLSearchParams(visitor).toString(),
  });

const refusedConnection = () => new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });

describe('the relay with an outbox', () => {
  it('keeps a message the API failed to take for a passing reason: 202 queued', async () => {
    for (const answer of [
      failure(500),
      failure(502),
      failure(503),
      failure(408),
      refusedConnection(),
    ]) {
      const { handler, kept } = relay([answer]);
      const response = await handler(post(), { clientIp: '203.0.113.1' });
      expect(response.status).toBe(202);
      expect(await response.json()).toEqual({
        status: 'ok',
        queued: true,
        message: 'Thank you, your message was received and will be delivered shortly.',
      });
      expect(kept).toHaveLength(1);
      expect(kept[0]?.mail).toMatchObject({ to: 'owner@shop.example', replyto: 'ada@example.com' });
      expect(kept[0]?.tries).toBe(1);
      expect(kept[0]?.delayMs).toBeGreaterThanOrEqual(15_000);
      expect(kept[0]?.delayMs).toBeLessThanOrEqual(30_000);
    }
  });

  it("waits at least the instance's Retry-After before the next try", async () => {
    const { handler, kept } = relay([failure(429, { 'retry-after': '600' })]);
    expect((await handler(post())).status).toBe(202);
    expect(kept[0]?.delayMs).toBe(600_000);
    expect(kept[0]?.lastError).toContain('429');
  });

  it('redirects a form post kept in the outbox as when sent', async () => {
    const { handler, kept } = relay([failure(503)]);
    const response = await handler(form());
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`${site}/contact-us?sent=1`);
    expect(kept).toHaveLength(1);
  });

  it('never keeps a refusal for good', async () => {
    for (const status of [400, 401, 403, 413]) {
      const { handler, kept } = relay([failure(status)]);
      expect((await handler(post())).status).not.toBe(202);
      expect(kept).toEqual([]);
    }
  });

  it('asks the visitor to try again when the store is full or cannot be reached, and says why in the log', async () => {
    const full = relay([failure(503)], { keep: async () => undefined });
    expect((await full.handler(post())).status).toBe(502);
    expect(full.log.mock.calls.flat().join('\n')).toContain('outbox: full (1000 messages');
    const down = relay([failure(503)], {
      keep: async () => {
        throw new Error('not connected (ECONNREFUSED)');
      },
    });
    expect((await down.handler(post())).status).toBe(502);
    expect(down.log.mock.calls.flat().join('\n')).toContain(
      'could not keep the message (not connected (ECONNREFUSED))',
    );
    const without = relay([failure(503)], null);
    expect((await without.handler(post())).status).toBe(502);
    const off = relay([failure(503)], {}, { outboxSettings: { maxMessages: 0 } });
    expect((await off.handler(post())).status).toBe(502);
    expect(off.kept).toEqual([]);
  });

  it('after a send without an answer, keeps new messages for 30 s without trying the instance', async () => {
    const { handler, kept, fetch } = relay([refusedConnection()]);
    expect((await handler(post())).status).toBe(202);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect((await handler(post())).status).toBe(202);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(kept[1]).toMatchObject({ tries: 0 });
    expect(kept[1]?.delayMs).toBeGreaterThan(25_000);
    expect(kept[1]?.delayMs).toBeLessThanOrEqual(30_000);
  });

  it('starts the drain when the instance takes a message after an outage, not after one mail’s own 500', async () => {
    const outage = relay([failure(503), sent(), sent()]);
    await outage.handler(post());
    expect((await outage.handler(post())).status).toBe(200);
    await vi.waitFor(() => expect(outage.calls.drain).toBe(1));
    await outage.handler(post());
    expect(outage.calls.drain).toBe(1);
    const poisoned = relay([failure(500), sent()]);
    await poisoned.handler(post());
    await poisoned.handler(post());
    expect(poisoned.calls.drain).toBe(0);
  });

  it('never logs what the visitor wrote', async () => {
    const { handler, log } = relay([failure(503)]);
    await handler(post());
    expect(log).toHaveBeenCalled();
    expect(log.mock.calls.flat().join('\n')).not.toContain('A private question');
  });

  it('gives the store the relay’s timing from the contract and the settings', () => {
    const { delivery } = relay([], {}, { outboxSettings: { lifetimeHours: 24, firstRetryS: 5 } });
    expect(delivery()?.settings).toMatchObject({
      lifetimeHours: 24,
      firstRetryS: 5,
      maxRetryS: 3600,
      retentionDays: 7,
      maxMessages: 1000,
    });
  });
});

describe('the outbox admin route', () => {
  const admin = (path = '', init: RequestInit = {}, bearer = secret) =>
    new Request(`${site}/admin/outbox${path}`, {
      ...init,
      headers: { authorization: `Bearer ${bearer}`, ...(init.headers ?? {}) },
    });

  it('is off without a secret', async () => {
    const { handler } = relay([]);
    const response = await handler(admin());
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ i18n_code: 'not_configured' });
  });

  it('refuses a wrong secret without logging it, and any browser request', async () => {
    const { handler, log } = relay([], {}, { adminSecret: secret });
    const wrong = 'a-wrong-secret-of-the-same-length-012';
    expect((await handler(admin('', {}, wrong))).status).toBe(401);
    expect((await handler(new Request(`${site}/admin/outbox`))).status).toBe(401);
    expect(log.mock.calls.flat().join('\n')).not.toContain(wrong);
    expect((await handler(admin('', { headers: { origin: site } }))).status).toBe(403);
  });

  it('lists, retries and deletes with the secret', async () => {
    const { handler, calls } = relay([], {}, { adminSecret: secret });
    const listing = await handler(admin());
    expect(listing.status).toBe(200);
    expect(await listing.json()).toEqual({
      status: 'ok',
      store: 'a recording store',
      messages: [],
    });
    const id = '6f1c2e3d-0000-4000-8000-000000000001';
    expect((await handler(admin(`/${id}/retry`, { method: 'POST' }))).status).toBe(200);
    expect(calls.retry).toEqual([id]);
    expect((await handler(admin(`/${id}`, { method: 'DELETE' }))).status).toBe(404);
    const busy = id.replace(/1$/, '9');
    expect((await handler(admin(`/${busy}`, { method: 'DELETE' }))).status).toBe(409);
    expect((await handler(admin('/not-an-id', { method: 'DELETE' }))).status).toBe(404);
    expect((await handler(admin(`/${id}`, { method: 'POST' }))).status).toBe(405);
  });

  it('counts every request toward a rate limit of its own', async () => {
    const { handler } = relay([], {}, { adminSecret: secret });
    const statuses: number[] = [];
    for (let n = 0; n < 31; n += 1) {
      statuses.push(
        (await handler(admin('', {}, 'x'.repeat(40)), { clientIp: '203.0.113.9' })).status,
      );
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
    expect((await handler(admin(), { clientIp: '203.0.113.10' })).status).toBe(200);
  });

  it('takes only a secret of at least 32 characters', () => {
    expect(() => relay([], {}, { adminSecret: 'short' })).toThrow(/at least 32 characters/);
  });
});
