// The README's relay snippets run as written on each runtime they are for, against the real stub:
// the Worker module in workerd (through Miniflare, two Workers sharing the Durable Object it
// exports), the Deno module under `deno serve`, and the Netlify function called as Netlify does,
// `(request, context)`. Only `sitebeam/relay` is pointed at the build. A runtime that cannot start
// here is reported SKIPPED with the reason.
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callStub, type RunningStub, startStub } from '../../../tests/support/stub-server.ts';
import {
  denoUnavailable,
  type RunningRuntime,
  readmeSnippet,
  startDenoServe,
  startWorkerd,
  workerdUnavailable,
} from './runtimes.ts';

const site = 'http://shop.example.test';
const limit = 3;

const settings = (stub: RunningStub): Record<string, string> => ({
  SITEBEAM_API_URL: stub.url,
  SITEBEAM_API_TOKEN: 'dev-token',
  SITEBEAM_ALLOWED_ORIGINS: site,
  SITEBEAM_CONTACT_TO: 'dev@example.com',
  SITEBEAM_CONTACT_FROM: 'forms@example.com',
  SITEBEAM_SITE_NAME: 'Runtime Shop',
  SITEBEAM_MIN_FILL_MS: '0',
  SITEBEAM_RATE_LIMIT: String(limit),
  SITEBEAM_RATE_LIMIT_WINDOW_S: '600',
});

type Send = (request: Request) => Promise<Response>;

/** A visitor's round: a ticket, the limit's worth of messages delivered, then 429 with Retry-After. */
async function visitorRound(stub: RunningStub, sends: Send[], visitor: string) {
  const request = (method: string, body?: object) =>
    new Request(`http://relay.example.test/contact`, {
      method,
      headers: {
        origin: site,
        'content-type': 'application/json',
        'cf-connecting-ip': visitor,
      },
      body: body && JSON.stringify(body),
    });
  const first = sends[0] as Send;
  const issued = await first(request('GET'));
  expect(issued.status, await issued.clone().text()).toBe(200);
  const { ticket } = (await issued.json()) as { ticket: string };
  const message = {
    name: 'Ada',
    email: 'ada@example.com',
    subject: 'Hi',
    message: visitor,
    ticket,
  };
  const statuses: number[] = [];
  let retryAfter: string | null = null;
  for (let post = 0; post <= limit; post += 1) {
    const answer = await (sends[post % sends.length] as Send)(request('POST', message));
    statuses.push(answer.status);
    retryAfter = answer.headers.get('retry-after');
    await answer.arrayBuffer();
  }
  expect(statuses).toEqual([...Array(limit).fill(200), 429]);
  expect(Number(retryAfter)).toBeGreaterThan(590);
  const { emails } = await callStub<{ emails: Array<{ message: { content?: string } }> }>(
    stub,
    '/__stub/emails',
  );
  expect(emails.filter((email) => email.message.content?.includes(visitor))).toHaveLength(limit);
}

let stub: RunningStub;
beforeAll(async () => {
  stub = await startStub();
});
afterAll(() => stub?.stop());

describe.skipIf(workerdUnavailable)('Cloudflare Worker (workerd through Miniflare)', () => {
  let workerd: Awaited<ReturnType<typeof startWorkerd>> | undefined;
  beforeAll(async () => {
    const script = readmeSnippet('**Cloudflare Worker**', 'worker.mjs');
    // Two Workers counting in the one Durable Object class the first exports.
    const worker = (name: string) => ({
      name,
      routes: [`${name}.workers.test/*`],
      bindings: settings(stub),
      durableObjects: { RATE_LIMIT: { className: 'SitebeamRateLimit', scriptName: 'relay-a' } },
    });
    workerd = await startWorkerd(script, [worker('relay-a'), worker('relay-b')]);
  }, 60_000);
  afterAll(() => workerd?.stop());

  it('runs the README module; two Workers share one allowance through the Durable Object', async () => {
    const miniflare = (workerd as NonNullable<typeof workerd>).miniflare;
    // Through workerd's own entry, routed by host name as Cloudflare routes a zone's requests.
    const send =
      (name: string): Send =>
      async (request) => {
        const answer = await miniflare.dispatchFetch(`http://${name}.workers.test/contact`, {
          method: request.method,
          headers: Object.fromEntries(request.headers),
          body: request.body ? await request.text() : undefined,
        });
        return new Response(await answer.arrayBuffer(), {
          status: answer.status,
          headers: Object.fromEntries(answer.headers),
        });
      };
    await visitorRound(stub, [send('relay-a'), send('relay-b')], '203.0.113.41');
  });
});

describe.skipIf(denoUnavailable)('Deno 2 (the deno binary from npm)', () => {
  let server: RunningRuntime | undefined;
  beforeAll(async () => {
    server = await startDenoServe(readmeSnippet('**Deno 2**', 'deno-relay.mjs'), settings(stub));
  }, 60_000);
  afterAll(() => server?.stop());

  it('runs the README module under deno serve', async () => {
    const url = (server as RunningRuntime).url;
    // deno serve gives the connection's address as the visitor's: every post here is 127.0.0.1.
    await visitorRound(
      stub,
      [(request) => fetch(new Request(`${url}/contact`, request))],
      '127.0.0.1',
    );
  });
});

describe('Netlify Function (Node, called as Netlify calls it)', () => {
  it('runs the README function with (request, context)', async () => {
    const path = readmeSnippet('**Netlify Function**', 'netlify-contact.mjs');
    const saved = { ...process.env };
    Object.assign(process.env, settings(stub));
    try {
      const module = await import(pathToFileURL(path).href);
      expect(module.config).toEqual({ path: '/contact' });
      const send: Send = (request) =>
        module.default(request, { ip: request.headers.get('cf-connecting-ip') });
      await visitorRound(stub, [send], '203.0.113.43');
    } finally {
      process.env = saved;
    }
  });
});
