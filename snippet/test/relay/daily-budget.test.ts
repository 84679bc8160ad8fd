// The chat's daily budget: SITEBEAM_CHAT_DAILY_LIMIT messages a UTC day for the whole relay,
// whatever the visitors' addresses; over it `429 daily_limit_reached` with `Retry-After` to the
// next UTC midnight. Counted in memory, or in a store the relays share.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningStub, startStub } from '../../../tests/support/stub-server.ts';
import { chatConfigFromEnv } from '../../src/relay/chat-config.js';
import { createDailyBudget, secondsToNextUtcDay } from '../../src/relay/daily-budget.js';
import { createChatHandler, type RelayHandler } from '../../src/relay/index.js';
import { createMemoryCounter, type WindowCounter } from '../../src/relay/rate-limit.js';
import { type RunningRelay, runRelayOnce, startRelay } from './start-relay.ts';

const site = 'https://shop.example';
let stub: RunningStub;
let relay: RunningRelay;

const env = () => ({
  SITEBEAM_API_URL: stub.url,
  SITEBEAM_API_TOKEN: 'dev-token',
  SITEBEAM_ALLOWED_ORIGINS: site,
  SITEBEAM_CHAT_MODELS: 'mock',
  SITEBEAM_CLIENT_IP_HEADER: 'x-forwarded-for',
});

beforeAll(async () => {
  stub = await startStub(['--quiet']);
  relay = await startRelay({ ...env(), SITEBEAM_CHAT_DAILY_LIMIT: '3' });
}, 30_000);
afterAll(async () => {
  await relay?.stop();
  await stub?.stop();
});

/** A chat message from a visitor at `address`. */
const ask = (address: string, message = 'Hello') =>
  fetch(`${relay.url}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: site, 'x-forwarded-for': address },
    body: JSON.stringify({ message }),
  });

describe('the relay command with SITEBEAM_CHAT_DAILY_LIMIT', () => {
  it('answers the day’s messages from any addresses, then refuses until the next UTC day', async () => {
    // Refused before the model: a message that fails its checks spends nothing.
    expect((await ask('198.51.100.9', '')).status).toBe(400);
    for (const address of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      expect((await ask(address)).status, address).toBe(200);
    }
    const before = secondsToNextUtcDay(Date.now());
    const refused = await ask('198.51.100.4');
    const after = secondsToNextUtcDay(Date.now());
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      status: 'ko',
      error: 'The chat is closed for today. Please come back tomorrow.',
      i18n_code: 'daily_limit_reached',
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeLessThanOrEqual(before);
    expect(retryAfter).toBeGreaterThanOrEqual(after);
  });

  it('refuses a limit that is not a whole number, by its name', async () => {
    for (const value of ['-1', 'ten', '2.5']) {
      const { code, output } = await runRelayOnce({ ...env(), SITEBEAM_CHAT_DAILY_LIMIT: value });
      expect(code, value).toBe(1);
      expect(output, value).toMatch(/SITEBEAM_CHAT_DAILY_LIMIT must be a whole number/);
    }
  });
});

describe('the daily limit a relay gets without SITEBEAM_CHAT_DAILY_LIMIT', () => {
  // The model answers at once: the budget, not the model, is what these tests count.
  const model = (async () =>
    Response.json({ status: 'ok', response: ['Hi'], score: null })) as typeof fetch;
  const endpoint = () => ({
    apiUrl: 'https://api.example',
    apiToken: 'dev-token',
    allowedOrigins: [site],
    fetch: model,
    log: () => undefined,
  });
  /** Sends `count` messages, each from an address of its own; answers their statuses. */
  const send = async (handler: RelayHandler, count: number, from = 0) => {
    const statuses: number[] = [];
    for (let index = from; index < from + count; index++) {
      const request = new Request('https://relay.example/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: site },
        body: JSON.stringify({ message: 'Hello' }),
      });
      const clientIp = `10.${index >> 16}.${(index >> 8) & 255}.${index & 255}`;
      const response = await handler(request, { clientIp });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    return statuses;
  };

  it('is 500: a new relay is no open model proxy on the owner’s quota', async () => {
    const handler = createChatHandler(
      endpoint(),
      chatConfigFromEnv({ SITEBEAM_CHAT_MODELS: 'mock' }),
    );
    const day = await send(handler, 500);
    expect(day.filter((status) => status === 200)).toHaveLength(500);
    expect(await send(handler, 1, 500)).toEqual([429]);
  });

  it('is none when the owner sets 0 on purpose', async () => {
    const handler = createChatHandler(
      endpoint(),
      chatConfigFromEnv({ SITEBEAM_CHAT_MODELS: 'mock', SITEBEAM_CHAT_DAILY_LIMIT: '0' }),
    );
    const day = await send(handler, 510);
    expect(day.filter((status) => status === 200)).toHaveLength(510);
  });
});

describe('createDailyBudget', () => {
  const noon = Date.UTC(2026, 10, 25, 12, 0, 0);

  it('counts per UTC day and answers the seconds to the next one', async () => {
    const budget = createDailyBudget(2);
    expect(await budget.take(noon)).toBeUndefined();
    expect(await budget.take(noon + 1000)).toBeUndefined();
    expect(await budget.take(noon + 2000)).toBe(12 * 3600 - 2);
    const nextDay = Date.UTC(2026, 10, 26, 0, 0, 0);
    expect(await budget.take(nextDay)).toBeUndefined();
  });

  it('counts in the rate-limit store the relays share: two relays, one day’s budget', async () => {
    const store = createMemoryCounter();
    const keys: string[] = [];
    const shared: WindowCounter = {
      take(key, limit, windowMs, now) {
        keys.push(key);
        return store.take(key, limit, windowMs, now);
      },
    };
    const [first, second] = [createDailyBudget(3, shared), createDailyBudget(3, shared)];
    expect(await first.take(noon)).toBeUndefined();
    expect(await second.take(noon)).toBeUndefined();
    expect(await first.take(noon)).toBeUndefined();
    expect(await second.take(noon)).toBe(12 * 3600);
    expect(new Set(keys)).toEqual(new Set(['chat-day:2026-11-25']));
  });
});
