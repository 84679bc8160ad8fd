// Real `sitebeam-relay` processes sharing Debian's redis-server, the real stub as the instance: a
// post during a 503 outage gets 202; the relay sending it again is killed with SIGKILL mid-send; the
// other relay takes the message over and delivers it once the instance is back, exactly once, also
// after the killed one restarts. A relay without Redis answers "try again", never 202; beyond the
// cap neither; the owner's `sitebeam-relay outbox` lists, retries and deletes, never echoing a password.
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RunningRedis,
  redisServerBinary,
  startRedis,
} from '../../../tests/support/redis-server.ts';
import { callStub, type RunningStub, startStub } from '../../../tests/support/stub-server.ts';
import type { OutboxEntry } from '../../src/relay/index.js';
import { outboxCommand } from '../../src/relay/outbox/command.js';
import { openRedisOutbox } from '../../src/relay/outbox/redis-outbox.js';
import { createTicketIssuer, ticketKey } from '../../src/relay/ticket.js';
import { type RunningRelay, relayEnv, testSite as site, startRelay } from './start-relay.ts';

/** How long a test waits for what a process does on its own clock, and how often it looks. */
const poll = { timeout: 60_000, interval: 200 };

let stub: RunningStub;
let redis: RunningRedis;
const relays: RunningRelay[] = [];

if (!redisServerBinary) {
  console.warn('SKIPPED: redis-server is not installed (tests/support/system-deps.sh installs it)');
}

const env = (extra: Record<string, string> = {}): Record<string, string> => ({
  ...relayEnv(stub.url, { SITEBEAM_SITE_NAME: 'Outbox Shop' }),
  SITEBEAM_TICKET_SECRET: 'outbox-secret',
  SITEBEAM_CLIENT_IP_HEADER: 'x-forwarded-for',
  SITEBEAM_OUTBOX_FIRST_RETRY_S: '1',
  // The least the 10 s API time-out allows: a dead relay's try is taken over after 15 s.
  SITEBEAM_OUTBOX_CLAIM_IDLE_S: '15',
  SITEBEAM_REDIS_URL: redis.url,
  ...extra,
});

async function relay(extra: Record<string, string> = {}) {
  const started = await startRelay(env(extra));
  relays.push(started);
  return started;
}

const ticket = createTicketIssuer(ticketKey('outbox-secret', ''), 0).issue(Date.now() - 5000);

async function post(to: RunningRelay, marker: string) {
  const response = await fetch(`${to.url}/contact`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: site,
      'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250) + 1}`,
    },
    body: JSON.stringify({
      name: 'Ada',
      email: 'ada@example.com',
      subject: `About ${marker}`,
      message: `Sent during an outage ${marker}`,
      ticket: await ticket,
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const faults = (rules: object[]) => callStub(stub, '/__stub/faults', 'PUT', { faults: rules });

async function mailWith(marker: string): Promise<number> {
  const { emails } = await callStub<{ emails: Array<{ message: { content?: string } }> }>(
    stub,
    '/__stub/emails',
  );
  return emails.filter((email) => email.message.content?.includes(marker)).length;
}

/** `sitebeam-relay outbox …` with these variables (run in this process): exit code and output. */
async function outbox(
  args: string[],
  variables: Record<string, string> = { SITEBEAM_REDIS_URL: redis.url },
) {
  let stdout = '';
  let stderr = '';
  const code = await outboxCommand(args, {
    env: variables,
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}

async function listed(variables?: Record<string, string>): Promise<OutboxEntry[]> {
  const { code, stdout, stderr } = await outbox(['list', '--json'], variables);
  expect(code, stderr).toBe(0);
  return (JSON.parse(stdout) as { messages: OutboxEntry[] }).messages;
}

/** The store's list read in this process: for waiting on, without a process per look. */
async function waiting(url = redis.url): Promise<number> {
  const store = openRedisOutbox({ url, name: 'test' });
  try {
    return (await store.list()).length;
  } finally {
    await store.close();
  }
}

/** The pid of the relay holding a try under way (its consumer name is host:pid:…), if any. */
async function pidSending(): Promise<number | undefined> {
  const client = createClient({ url: redis.url });
  await client.connect();
  try {
    const pending = (await client.sendCommand([
      'XPENDING',
      '{sitebeam-outbox}:tries',
      'relays',
      '-',
      '+',
      '10',
    ])) as Array<[string, string]>;
    const consumer = pending[0]?.[1];
    return consumer ? Number(consumer.split(':')[1]) : undefined;
  } finally {
    client.destroy();
  }
}

describe.skipIf(!redisServerBinary)('relays sharing a Redis outbox', () => {
  beforeAll(async () => {
    [stub, redis] = await Promise.all([startStub(['--quiet', '--no-demo']), startRedis()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([...relays.map((r) => r.stop()), stub?.stop(), redis?.close()]);
  });

  it('deliver a message posted during an outage exactly once, after its relay was killed mid-send, and not again after it restarts', async () => {
    const pair = await Promise.all([relay(), relay()]);
    for (const started of pair) {
      await expect
        .poll(() => started.output().includes('outbox: delivering from Redis'), poll)
        .toBe(true);
    }
    const marker = 'kill-mid-send-4c1d';
    // The post meets a 503; every later try hangs 6 s, then meets a 503 too.
    await faults([
      { path_prefix: '/v1/email', status: 503, times: 1, body_contains: marker },
      { path_prefix: '/v1/email', status: 503, delay_ms: 6_000, body_contains: marker },
    ]);
    const answer = await post(pair[0] as RunningRelay, marker);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body).toMatchObject({ status: 'ok', queued: true });

    await expect.poll(pidSending, poll).toBeDefined();
    const pid = await pidSending();
    const sender = pair.find((started) => started.child.pid === pid) as RunningRelay;
    const other = pair.find((started) => started !== sender) as RunningRelay;
    expect(sender).toBeDefined();
    sender.child.kill('SIGKILL');
    await expect.poll(() => sender.child.signalCode === 'SIGKILL', poll).toBe(true);
    const [kept] = await listed();
    expect(kept).toMatchObject({ state: 'sending', subject: `[Outbox Shop] About ${marker}` });

    // The instance is back; the killed relay's try is taken over once idle 15 s.
    await faults([]);
    await expect.poll(async () => (await mailWith(marker)) > 0, poll).toBe(true);
    await expect.poll(async () => (await waiting()) === 0, poll).toBe(true);
    expect(other.output()).toMatch(/outbox: message [0-9a-f-]+ delivered/);

    const restarted = await relay();
    await expect
      .poll(() => restarted.output().includes('outbox: delivering from Redis'), poll)
      .toBe(true);
    // A message through the restarted relay arrives: its delivery has run, and sent nothing twice.
    const second = 'after-restart-9e2f';
    await faults([{ path_prefix: '/v1/email', status: 503, times: 1, body_contains: second }]);
    expect((await post(restarted, second)).status).toBe(202);
    await expect.poll(async () => (await mailWith(second)) > 0, poll).toBe(true);
    await expect.poll(async () => (await waiting()) === 0, poll).toBe(true);
    expect(await mailWith(marker)).toBe(1);
    expect(await mailWith(second)).toBe(1);
  }, 120_000);

  it('without Redis, answer "try again", never 202', async () => {
    const plain = await relay({ SITEBEAM_REDIS_URL: '' });
    expect(plain.output()).toContain('No outbox (SITEBEAM_REDIS_URL unset)');
    const marker = 'no-redis-5a0b';
    await faults([{ path_prefix: '/v1/email', status: 503, body_contains: marker }]);
    const answer = await post(plain, marker);
    expect(answer.status).toBe(502);
    expect(answer.body).toMatchObject({ status: 'ko', i18n_code: 'upstream_failed' });
    await faults([]);
  });

  it('beyond the cap, answer "try again", never 202', async () => {
    // A database of its own: the cap counts this test's messages only.
    const capped = await relay({
      SITEBEAM_REDIS_URL: `${redis.url}/3`,
      SITEBEAM_OUTBOX_MAX_MESSAGES: '1',
    });
    const marker = 'capped-8d3e';
    await faults([{ path_prefix: '/v1/email', status: 503, body_contains: marker }]);
    expect((await post(capped, `${marker} one`)).status).toBe(202);
    const refused = await post(capped, `${marker} two`);
    expect(refused.status).toBe(502);
    expect(capped.output()).toContain('outbox: full (1 messages');
    await faults([]);
    await expect.poll(async () => (await mailWith(marker)) === 1, poll).toBe(true);
  }, 60_000);

  it('let the owner list, retry and delete with sitebeam-relay outbox, naming each outcome by its exit code', async () => {
    const mine = await relay({
      SITEBEAM_REDIS_URL: `${redis.url}/4`,
      SITEBEAM_OUTBOX_FIRST_RETRY_S: '3600',
    });
    const variables = { SITEBEAM_REDIS_URL: `${redis.url}/4` };
    const marker = 'owner-view-2b7a';
    await faults([{ path_prefix: '/v1/email', status: 503, times: 2, body_contains: marker }]);
    expect((await post(mine, `${marker} kept`)).status).toBe(202);
    expect((await post(mine, `${marker} dropped`)).status).toBe(202);

    const human = await outbox(['list'], variables);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('2 messages (2 waiting, 0 being sent, 0 given up)');
    expect(human.stdout).toContain(`subject:    [Outbox Shop] About ${marker} kept`);
    expect(human.stdout).toMatch(/last error: the instance answered 503/);
    expect(human.stdout).toMatch(/next try .* \(in \d+ min\)/);
    const [kept, dropped] = await listed(variables);
    expect(kept).toMatchObject({ state: 'waiting', tries: 1, to: 'dev@example.com' });

    expect((await outbox(['delete', dropped?.id as string], variables)).code).toBe(0);
    expect((await outbox(['delete', dropped?.id as string], variables)).code).toBe(4);
    expect((await outbox(['retry', kept?.id as string, '--json'], variables)).stdout).toContain(
      '"result":"done"',
    );
    await expect.poll(async () => (await mailWith(`${marker} kept`)) === 1, poll).toBe(true);
    await expect
      .poll(async () => (await waiting(variables.SITEBEAM_REDIS_URL)) === 0, poll)
      .toBe(true);
    expect(await mailWith(`${marker} dropped`)).toBe(0);

    expect((await outbox(['list', 'extra'], variables)).code).toBe(2);
    expect((await outbox(['send'], variables)).code).toBe(2);
    const nowhere = await outbox(['list'], {});
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain('set SITEBEAM_REDIS_URL');
    const help = await outbox(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes:');
    const [host, port] = redis.url.replace('redis://', '').split(':');
    const wrong = await outbox(['list'], {
      SITEBEAM_REDIS_URL: `redis://user:s3cret-pass@${host}:${port}`,
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stdout + wrong.stderr).not.toContain('s3cret-pass');
  }, 120_000);
});
