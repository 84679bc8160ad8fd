// The outbox on workerd (the Durable Object SitebeamOutbox, through Miniflare) and on Deno 2 (Deno
// KV under `deno serve --unstable-kv`), each running snippet/README.md's module as written, the real
// stub as the instance: a message posted during a 503 outage gets 202 queued, shows in
// `sitebeam-relay outbox list --url` (the relay's admin route), and is delivered once the instance
// is back, exactly once; a wrong admin secret is refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callStub, type RunningStub, startStub } from '../../../tests/support/stub-server.ts';
import type { OutboxEntry } from '../../src/relay/index.js';
import { relayEnv, runRelayCommand, testSite as site } from '../relay/start-relay.ts';
import {
  denoUnavailable,
  type RunningRuntime,
  readmeSnippet,
  startDenoServe,
  startWorkerd,
  workDir,
  workerdUnavailable,
} from './runtimes.ts';

/** How long a test waits for what a process does on its own clock, and how often it looks. */
const poll = { timeout: 30_000, interval: 200 };

const adminSecret = 'runtime-outbox-admin-secret-0123456789abcdef';

const settings = (stub: RunningStub): Record<string, string> =>
  relayEnv(stub.url, {
    SITEBEAM_SITE_NAME: 'Outbox Shop',
    SITEBEAM_OUTBOX_FIRST_RETRY_S: '1',
    SITEBEAM_ADMIN_SECRET: adminSecret,
  });

/** The admin route's list, as the command reads it, with `secret`. */
async function listed(url: string, secret = adminSecret) {
  return fetch(`${url}/admin/outbox`, { headers: { authorization: `Bearer ${secret}` } });
}

let stub: RunningStub;
beforeAll(async () => {
  stub = await startStub(['--quiet', '--no-demo']);
});
afterAll(() => stub?.stop());

async function mailWith(marker: string): Promise<number> {
  const { emails } = await callStub<{ emails: Array<{ message: { content?: string } }> }>(
    stub,
    '/__stub/emails',
  );
  return emails.filter((email) => email.message.content?.includes(marker)).length;
}

/** The outage: a post during a 503 gets 202 queued, is listed, and arrives once when it ends. */
async function outage(url: string, marker: string) {
  await callStub(stub, '/__stub/faults', 'PUT', {
    faults: [{ path_prefix: '/v1/email', status: 503, body_contains: marker }],
  });
  const headers = { origin: site, 'content-type': 'application/json' };
  const issued = await fetch(`${url}/contact`, { headers });
  const { ticket } = (await issued.json()) as { ticket: string };
  const answer = await fetch(`${url}/contact`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: 'Ada',
      email: 'ada@example.com',
      subject: 'Outage',
      message: `Sent during the outage ${marker}`,
      ticket,
    }),
  });
  expect(answer.status, await answer.clone().text()).toBe(202);
  expect(await answer.json()).toMatchObject({ status: 'ok', queued: true });

  const { code, stdout, stderr } = await runRelayCommand(
    ['outbox', 'list', '--json', '--url', url],
    {
      SITEBEAM_ADMIN_SECRET: adminSecret,
    },
  );
  expect(code, stderr).toBe(0);
  const [waiting] = (JSON.parse(stdout) as { messages: OutboxEntry[] }).messages;
  expect(waiting).toMatchObject({ to: 'dev@example.com', subject: '[Outbox Shop] Outage' });
  expect(waiting?.tries).toBeGreaterThanOrEqual(1);
  expect(waiting?.lastError).toContain('503');
  expect((await listed(url, 'not-the-secret-but-long-enough-0123456789')).status).toBe(401);

  await callStub(stub, '/__stub/faults', 'PUT', { faults: [] });
  await expect.poll(async () => (await mailWith(marker)) > 0, poll).toBe(true);
  await expect
    .poll(async () => {
      const { messages } = (await (await listed(url)).json()) as { messages: OutboxEntry[] };
      return messages.length === 0;
    }, poll)
    .toBe(true);
  expect(await mailWith(marker)).toBe(1);
}

describe.skipIf(workerdUnavailable)('the outbox on workerd (Durable Object, Miniflare)', () => {
  let workerd: RunningRuntime | undefined;
  beforeAll(async () => {
    const script = readmeSnippet('**Cloudflare Worker** with the outbox', 'outbox-worker.mjs');
    workerd = await startWorkerd(script, [
      {
        name: 'relay',
        bindings: settings(stub),
        durableObjects: { RATE_LIMIT: 'SitebeamRateLimit', OUTBOX: 'SitebeamOutbox' },
      },
    ]);
  }, 60_000);
  afterAll(() => workerd?.stop());

  it('keeps a message posted during a 503 outage (202) and delivers it once the instance is back, exactly once', async () => {
    await outage((workerd as RunningRuntime).url, 'workerd-outage-1f3a');
  }, 90_000);
});

describe.skipIf(denoUnavailable)('the outbox on Deno 2 (Deno KV)', () => {
  let deno: RunningRuntime | undefined;
  let denoDir = '';
  beforeAll(async () => {
    const script = readmeSnippet('**Deno 2** with the outbox', 'outbox-deno.mjs');
    // A database of this run's own: nothing left by an earlier run is delivered here.
    denoDir = mkdtempSync(join(workDir, 'deno-dir-'));
    deno = await startDenoServe(script, { ...settings(stub), DENO_DIR: denoDir }, [
      '--unstable-kv',
    ]);
  }, 60_000);
  afterAll(async () => {
    await deno?.stop();
    if (denoDir) rmSync(denoDir, { recursive: true, force: true });
  });

  it('keeps a message posted during a 503 outage (202) and delivers it once the instance is back, exactly once', async () => {
    await outage((deno as RunningRuntime).url, 'deno-outage-7b2c');
  }, 90_000);
});
