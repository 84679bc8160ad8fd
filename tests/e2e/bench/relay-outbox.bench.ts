// The relay's outbox under load: two `sitebeam-relay` processes sharing Debian's redis-server, the
// real stub as the instance. 1,000 messages sent straight through the relays (the direct send),
// then 1,000 posted during a 503 outage (each kept: 202), drained by both relays once the instance
// is back. Prints both rates, messages per second, side by side, and who delivered how many. The
// checks: every kept message arrives exactly once, and the outbox ends empty. No timing is checked.
import { expect, test } from '@playwright/test';
import { createTicketIssuer, ticketKey } from '../../../snippet/src/relay/ticket.js';
import {
  type RunningRelay,
  relayEnv,
  testSite as site,
  startRelay,
} from '../../../snippet/test/relay/start-relay.ts';
import { redisServerBinary, startRedis } from '../../support/redis-server.ts';
import { callStub, startStub } from '../../support/stub-server.ts';

const MESSAGES = 1000;
const CONCURRENCY = 20;

/** Runs `task` for 0…count-1, `CONCURRENCY` at a time. */
async function pool(count: number, task: (index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

test('relay outbox: 1,000 queued messages drained by two relays, beside the direct send', async () => {
  test.skip(!redisServerBinary, 'redis-server is not installed (tests/support/system-deps.sh)');
  const [stub, redis] = await Promise.all([
    startStub(['--quiet', '--no-demo', '--history', String(4 * MESSAGES)]),
    startRedis(),
  ]);
  const ticket = await createTicketIssuer(ticketKey('bench', ''), 0).issue(Date.now() - 5000);
  const env = relayEnv(stub.url, {
    SITEBEAM_TICKET_SECRET: 'bench',
    SITEBEAM_RATE_LIMIT: String(10 * MESSAGES),
    SITEBEAM_REDIS_URL: redis.url,
    SITEBEAM_OUTBOX_MAX_MESSAGES: String(2 * MESSAGES),
  });
  const relays: RunningRelay[] = await Promise.all([startRelay(env), startRelay(env)]);
  const post = async (index: number, text: string) => {
    const relay = relays[index % relays.length] as RunningRelay;
    const response = await fetch(`${relay.url}/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: site },
      body: JSON.stringify({ name: 'Ada', email: 'ada@example.com', message: text, ticket }),
    });
    await response.arrayBuffer();
    return response.status;
  };
  const delivered = async (prefix: string) => {
    const { emails } = await callStub<{ emails: Array<{ message: { content?: string } }> }>(
      stub,
      '/__stub/emails',
    );
    const counts = new Map<string, number>();
    for (const { message } of emails) {
      const marker = /bench-\w+-\d+-end/.exec(message.content ?? '')?.[0];
      if (marker?.startsWith(prefix)) counts.set(marker, (counts.get(marker) ?? 0) + 1);
    }
    return counts;
  };

  try {
    const directStarted = performance.now();
    const directStatuses = new Map<number, number>();
    await pool(MESSAGES, async (index) => {
      const status = await post(index, `bench-direct-${index}-end`);
      directStatuses.set(status, (directStatuses.get(status) ?? 0) + 1);
    });
    const directS = (performance.now() - directStarted) / 1000;

    await callStub(stub, '/__stub/faults', 'PUT', {
      faults: [{ path_prefix: '/v1/email', status: 503, body_contains: 'bench-queued-' }],
    });
    const keptStatuses = new Map<number, number>();
    await pool(MESSAGES, async (index) => {
      const status = await post(index, `bench-queued-${index}-end`);
      keptStatuses.set(status, (keptStatuses.get(status) ?? 0) + 1);
    });
    expect(Object.fromEntries(keptStatuses)).toEqual({ 202: MESSAGES });

    // The instance is back: the first message it takes starts the drain.
    await callStub(stub, '/__stub/faults', 'PUT', { faults: [] });
    const drainStarted = performance.now();
    expect(await post(0, 'bench-recovery-0-end')).toBe(200);
    let counts = new Map<string, number>();
    while (counts.size < MESSAGES) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      counts = await delivered('bench-queued-');
      if (performance.now() - drainStarted > 240_000) break;
    }
    const drainS = (performance.now() - drainStarted) / 1000;

    expect(counts.size).toBe(MESSAGES);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    const shares = relays.map(
      (relay) => relay.output().match(/outbox: message [0-9a-f-]+ delivered/g)?.length ?? 0,
    );
    console.log(
      `\nrelay outbox: ${MESSAGES} messages, ${CONCURRENCY} visitors at a time, 2 relays sharing redis-server`,
    );
    console.log(
      `  direct send (instance up):          ${(MESSAGES / directS).toFixed(0)} messages/s (${directS.toFixed(1)} s, statuses ${JSON.stringify(Object.fromEntries(directStatuses))})`,
    );
    console.log(
      `  outbox drain (after a 503 outage):  ${(MESSAGES / drainS).toFixed(0)} messages/s (${drainS.toFixed(1)} s from recovery to the last one delivered; each exactly once; delivered by relay 1: ${shares[0]}, relay 2: ${shares[1]})`,
    );
  } finally {
    await Promise.all([...relays.map((relay) => relay.stop()), stub.stop(), redis.close()]);
  }
});
