// The relay beyond one process: 50 visitors × 20 posts spread over two `sitebeam-relay` processes,
// first each counting in memory, then both sharing Debian's redis-server, the real stub as the
// API. Prints how many posts were accepted (with Redis exactly limit × 50) and the relay's added
// latency, p50/p99 of an accepted post minus those of the same call made straight to the API in
// the same run. Prints numbers; the one check is the accepted count.
import { expect, test } from '@playwright/test';
import { createTicketIssuer, ticketKey } from '../../../snippet/src/relay/ticket.js';
import {
  type RunningRelay,
  relayEnv,
  testSite as site,
  startRelay,
} from '../../../snippet/test/relay/start-relay.ts';
import { redisServerBinary, startRedis } from '../../support/redis-server.ts';
import { startStub } from '../../support/stub-server.ts';

const VISITORS = 50;
const POSTS = 20;
const LIMIT = 5;
const message = { name: 'Ada', email: 'ada@example.com', subject: 'Hello', message: 'Hi' };

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function timed(call: () => Promise<Response>) {
  const started = performance.now();
  const response = await call();
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

test('relay scale-out: memory vs Redis store', async () => {
  test.skip(!redisServerBinary, 'redis-server is not installed (tests/support/system-deps.sh)');
  const [stub, redis] = await Promise.all([startStub(), startRedis()]);
  const ticket = await createTicketIssuer(ticketKey('bench', ''), 0).issue(Date.now() - 5000);
  const body = JSON.stringify({ ...message, ticket });
  const env = relayEnv(stub.url, {
    SITEBEAM_SITE_NAME: 'Bench',
    SITEBEAM_TICKET_SECRET: 'bench',
    SITEBEAM_RATE_LIMIT: String(LIMIT),
    SITEBEAM_RATE_LIMIT_WINDOW_S: '600',
    SITEBEAM_CLIENT_IP_HEADER: 'x-forwarded-for',
  });
  const direct = () =>
    timed(() =>
      fetch(`${stub.url}/v1/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-auth-token': 'dev-token' },
        body: JSON.stringify({
          to: 'dev@example.com',
          from: 'forms@example.com',
          replyto: message.email,
          subject: `[Bench] ${message.subject}`,
          content: `<p>${message.message}</p>`,
        }),
      }),
    );

  /** Every visitor posts in turn to relay 0, 1, 0…; the visitors all at once. */
  async function run(relays: RunningRelay[], round: number) {
    const relayed: Array<{ status: number; ms: number }> = [];
    const straight: number[] = [];
    await Promise.all(
      Array.from({ length: VISITORS }, async (_, visitor) => {
        for (let post = 0; post < POSTS; post += 1) {
          const relay = relays[(visitor + post) % relays.length] as RunningRelay;
          relayed.push(
            await timed(() =>
              fetch(`${relay.url}/contact`, {
                method: 'POST',
                headers: {
                  'content-type': 'application/json',
                  origin: site,
                  'x-forwarded-for': `198.51.${round}.${visitor + 1}`,
                },
                body,
              }),
            ),
          );
          // The same call straight to the API, interleaved so a busy machine slows both alike.
          if (post < LIMIT) straight.push((await direct()).ms);
        }
      }),
    );
    const accepted = relayed.filter((answer) => answer.status === 200);
    const statuses = new Map<number, number>();
    for (const { status } of relayed) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
    const viaRelay = sorted(accepted.map((answer) => answer.ms));
    const viaApi = sorted(straight);
    return {
      accepted: accepted.length,
      statuses: Object.fromEntries(statuses),
      relayP50: percentile(viaRelay, 50),
      relayP99: percentile(viaRelay, 99),
      apiP50: percentile(viaApi, 50),
      apiP99: percentile(viaApi, 99),
    };
  }

  const results: Record<string, Awaited<ReturnType<typeof run>>> = {};
  try {
    for (const [round, [store, extra]] of [
      ['memory', {}],
      ['redis', { SITEBEAM_REDIS_URL: redis.url }],
    ].entries() as IterableIterator<[number, [string, Record<string, string>]]>) {
      const relays = await Promise.all([
        startRelay({ ...env, ...extra }),
        startRelay({ ...env, ...extra }),
      ]);
      try {
        results[store] = await run(relays, round);
        const storeLines = relays.flatMap((relay) =>
          relay
            .output()
            .split('\n')
            .filter((line) => line.includes('rate-limit store')),
        );
        for (const line of storeLines) console.log(`  (${store} round) ${line}`);
      } finally {
        await Promise.all(relays.map((relay) => relay.stop()));
      }
    }
  } finally {
    await Promise.all([stub.stop(), redis.close()]);
  }

  console.log(
    `\nrelay scale-out: ${VISITORS} visitors × ${POSTS} posts over 2 relays, limit ${LIMIT} per visitor`,
  );
  for (const [store, result] of Object.entries(results)) {
    console.log(
      `  ${store.padEnd(6)} store: ${result.accepted} accepted (limit × ${VISITORS} = ${LIMIT * VISITORS}), statuses ${JSON.stringify(result.statuses)}`,
    );
    console.log(
      `    accepted post via relay p50 ${ms(result.relayP50)} p99 ${ms(result.relayP99)}; straight to the API p50 ${ms(result.apiP50)} p99 ${ms(result.apiP99)}; added p50 ${ms(result.relayP50 - result.apiP50)} p99 ${ms(result.relayP99 - result.apiP99)}`,
    );
  }
  expect(results.redis?.accepted).toBe(LIMIT * VISITORS);
});
