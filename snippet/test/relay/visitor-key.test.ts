// Issue 10, point 1: who a visitor is, for the rate limit. A trusted-proxy header is read from
// the right, must hold an IP address, IPv6 counts per /64, and the counters stay bounded.
import { describe, expect, it, vi } from 'vitest';
import { createRelayHandler, type RelayConfig } from '../../src/relay/index.js';
import { createMemoryCounter } from '../../src/relay/rate-limit.js';
import { shopConfig, site } from './shop-relay.js';

function relay(overrides: Partial<RelayConfig> = {}) {
  const fetch = vi.fn(
    async () => new Response(JSON.stringify({ status: 'ok', id: 'mail-1' }), { status: 200 }),
  );
  return createRelayHandler({
    ...shopConfig,
    rateLimitPerMinute: 2,
    fetch: fetch as typeof globalThis.fetch,
    log: () => {},
    ...overrides,
  });
}

/** A post the relay refuses on its content: enough to be counted, nothing is sent. */
const post = (headers: Record<string, string>) =>
  new Request(`${site}/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: site, ...headers },
    body: '{}',
  });

async function statuses(
  handler: ReturnType<typeof relay>,
  requests: Array<[Record<string, string>, string]>,
) {
  const answers: number[] = [];
  for (const [headers, clientIp] of requests) {
    answers.push((await handler(post(headers), { clientIp })).status);
  }
  return answers;
}

describe('the visitor behind a trusted proxy', () => {
  it('is the rightmost X-Forwarded-For entry: rotating the leftmost one gains nothing', async () => {
    const handler = relay({ clientIpHeader: 'x-forwarded-for' });
    const rotated = [1, 2, 3, 4, 5, 6].map((n): [Record<string, string>, string] => [
      { 'x-forwarded-for': `198.51.100.${n}, 203.0.113.7` },
      '10.0.0.1',
    ]);
    expect(await statuses(handler, rotated)).toEqual([400, 400, 429, 429, 429, 429]);
  });

  it('skips the configured number of trusted hops from the right', async () => {
    const handler = relay({ clientIpHeader: 'x-forwarded-for', trustedProxyHops: 2 });
    const answers = await statuses(handler, [
      [{ 'x-forwarded-for': '1.1.1.1, 203.0.113.7, 10.0.0.2' }, '10.0.0.1'],
      [{ 'x-forwarded-for': '2.2.2.2, 203.0.113.7, 10.0.0.3' }, '10.0.0.1'],
      [{ 'x-forwarded-for': '3.3.3.3, 203.0.113.7, 10.0.0.4' }, '10.0.0.1'],
      [{ 'x-forwarded-for': '203.0.113.8, 10.0.0.2' }, '10.0.0.1'],
    ]);
    expect(answers).toEqual([400, 400, 429, 400]);
  });

  it('falls back to the connection address when the header is not an IP address', async () => {
    const handler = relay({ clientIpHeader: 'x-forwarded-for' });
    const junk = (n: number): [Record<string, string>, string] => [
      { 'x-forwarded-for': `${'x'.repeat(8192)}${n}` },
      '192.0.2.50',
    ];
    expect(await statuses(handler, [junk(1), junk(2), junk(3)])).toEqual([400, 400, 429]);
    // Another connection is another visitor, whatever junk it sends.
    expect(await statuses(handler, [[{ 'x-forwarded-for': 'junk' }, '192.0.2.51']])).toEqual([400]);
  });

  it('refuses addresses written in forms an IP parser would bend (octal, hex, short)', async () => {
    const handler = relay({ clientIpHeader: 'x-real-ip' });
    const answers = await statuses(handler, [
      [{ 'x-real-ip': '0x7f.1' }, '192.0.2.60'],
      [{ 'x-real-ip': '127.1' }, '192.0.2.60'],
      [{ 'x-real-ip': '010.0.0.1' }, '192.0.2.60'],
    ]);
    expect(answers).toEqual([400, 400, 429]);
  });
});

describe('IPv6 visitors', () => {
  it('are counted per /64: every address of one network shares one allowance', async () => {
    const handler = relay();
    const answers = await statuses(handler, [
      [{}, '2001:db8:1:2::1'],
      [{}, '2001:db8:1:2:ffff:ffff:ffff:ffff'],
      [{}, '2001:0db8:0001:0002:abcd::9'],
      [{}, '2001:db8:1:3::1'],
    ]);
    expect(answers).toEqual([400, 400, 429, 400]);
  });

  it('are counted per /64 when a trusted header names them too', async () => {
    const handler = relay({ clientIpHeader: 'x-forwarded-for' });
    const answers = await statuses(handler, [
      [{ 'x-forwarded-for': '2001:db8::1' }, '10.0.0.1'],
      [{ 'x-forwarded-for': '2001:db8::2' }, '10.0.0.1'],
      [{ 'x-forwarded-for': '2001:db8:0:0:1::3' }, '10.0.0.1'],
    ]);
    expect(answers).toEqual([400, 400, 429]);
  });

  it('an IPv4-mapped IPv6 address is its IPv4 visitor', async () => {
    const handler = relay();
    const answers = await statuses(handler, [
      [{}, '::ffff:192.0.2.9'],
      [{}, '192.0.2.9'],
      [{}, '::ffff:192.0.2.9'],
    ]);
    expect(answers).toEqual([400, 400, 429]);
  });
});

describe('the counters', () => {
  it('stay bounded: past the maximum the least recently seen visitor is forgotten', async () => {
    const counter = createMemoryCounter(3);
    const now = 1_000_000;
    for (const key of ['a', 'b', 'c'])
      expect(await counter.take(key, 1, 60_000, now)).toBeUndefined();
    expect(await counter.take('a', 1, 60_000, now)).toBe(60_000); // a is now the most recent
    expect(counter.size()).toBe(3);
    expect(await counter.take('d', 1, 60_000, now)).toBeUndefined(); // b, the least recent, goes
    expect(counter.size()).toBe(3);
    expect(await counter.take('b', 1, 60_000, now)).toBeUndefined();
    expect(await counter.take('a', 1, 60_000, now)).toBe(60_000);
  });

  it('hold at most the maximum however many visitors come', async () => {
    const counter = createMemoryCounter(1000);
    for (let n = 0; n < 50_000; n += 1) await counter.take(`visitor-${n}`, 5, 60_000, n);
    expect(counter.size()).toBe(1000);
  });
});
