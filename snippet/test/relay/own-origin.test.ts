// The relay's own origin over real HTTP, through the `sitebeam-relay` command and the real stub: a
// DNS-rebinding page (Host and Origin both evil.example) is refused on /contact and /chat, a page on
// SITEBEAM_PUBLIC_URL is served, and a SITEBEAM_PUBLIC_URL that is not an https origin stops the
// command, naming the variable.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningStub, startStub } from '../../../tests/support/stub-server.ts';
import { createTicketIssuer, ticketKey } from '../../src/relay/ticket.js';
import { rawPost } from './raw-post.ts';
import { type RunningRelay, relayEnv, runRelayOnce, startRelay } from './start-relay.ts';

const site = 'https://shop.example';
const publicUrl = 'https://relay.example.test';
const rebound = { host: 'evil.example', origin: 'http://evil.example' };
const visitor = {
  name: 'Ada',
  email: 'ada@example.com',
  message: 'Hello',
  ticket: await createTicketIssuer(ticketKey('test-secret', ''), 0).issue(Date.now() - 5000),
};

let stub: RunningStub;
let pinned: RunningRelay;
let unpinned: RunningRelay;

const env = () =>
  relayEnv(stub.url, {
    SITEBEAM_ALLOWED_ORIGINS: site,
    SITEBEAM_TICKET_SECRET: 'test-secret',
    SITEBEAM_RATE_LIMIT: '100',
    SITEBEAM_CHAT_MODELS: 'mock',
    SITEBEAM_CHAT_RATE_LIMIT_PER_MINUTE: '100',
  });

beforeAll(async () => {
  stub = await startStub();
  [pinned, unpinned] = await Promise.all([
    startRelay({ ...env(), SITEBEAM_PUBLIC_URL: publicUrl }),
    startRelay(env()),
  ]);
}, 30_000);
afterAll(async () => {
  await Promise.all([pinned?.stop(), unpinned?.stop()]);
  await stub?.stop();
});
beforeEach(async () => {
  await fetch(`${stub.url}/__stub/emails`, { method: 'DELETE' });
});

/** Posts a message to the relay's `path` as a page on `origin` would, with `Host: host`. */
async function postFrom(
  relay: RunningRelay,
  path: '/contact' | '/chat',
  page: { host: string; origin: string },
) {
  const body = path === '/chat' ? { message: 'Hello' } : visitor;
  const answer = await rawPost(Number(new URL(relay.url).port), {
    path,
    host: page.host,
    headers: { origin: page.origin },
    body: Buffer.from(JSON.stringify(body)),
  });
  return { status: answer.status, code: JSON.parse(answer.body).i18n_code as string | undefined };
}

async function inboxSize(): Promise<number> {
  return (await (await fetch(`${stub.url}/__stub/emails`)).json()).emails.length;
}

describe('with SITEBEAM_PUBLIC_URL', () => {
  it('refuses a rebound page on the contact form and the chat', async () => {
    for (const path of ['/contact', '/chat'] as const) {
      expect(await postFrom(pinned, path, rebound), path).toEqual({
        status: 403,
        code: 'forbidden_origin',
      });
    }
    expect(await inboxSize()).toBe(0);
  });

  it('serves a page on that origin, whatever Host the proxy in front forwards', async () => {
    const own = new URL(pinned.url);
    for (const host of ['relay.example.test', own.host]) {
      const page = { host, origin: publicUrl };
      expect(await postFrom(pinned, '/contact', page), host).toEqual({ status: 200 });
      expect((await postFrom(pinned, '/chat', page)).status, host).toBe(200);
    }
    expect(await inboxSize()).toBe(2);
    expect(pinned.output()).toContain(`are on ${publicUrl}.`);
  });

  it('no longer counts the origin of a loopback Host as its own', async () => {
    const own = new URL(pinned.url);
    const page = { host: own.host, origin: own.origin };
    expect((await postFrom(pinned, '/contact', page)).status).toBe(403);
    expect((await postFrom(pinned, '/chat', page)).status).toBe(403);
  });
});

describe('without SITEBEAM_PUBLIC_URL', () => {
  it('refuses a rebound page, and logs once per endpoint how to pin its origin', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      for (const path of ['/contact', '/chat'] as const) {
        expect((await postFrom(unpinned, path, rebound)).status, path).toBe(403);
      }
    }
    expect(await inboxSize()).toBe(0);
    const hints = unpinned.output().match(/refused a page on http:\/\/evil\.example.*/g) ?? [];
    expect(hints).toHaveLength(2);
    expect(hints[0]).toContain('set SITEBEAM_PUBLIC_URL');
  });

  it('still serves its own pages when reached at 127.0.0.1 or localhost', async () => {
    const { port } = new URL(unpinned.url);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const page = { host, origin: `http://${host}` };
      expect(await postFrom(unpinned, '/contact', page), host).toEqual({ status: 200 });
      expect((await postFrom(unpinned, '/chat', page)).status, host).toBe(200);
    }
    expect(await inboxSize()).toBe(2);
    expect(unpinned.output()).toContain('SITEBEAM_PUBLIC_URL is unset');
  });
});

describe('a SITEBEAM_PUBLIC_URL that is not an https origin', () => {
  it('stops the command at start, naming the variable, with or without the contact form', async () => {
    const { SITEBEAM_CONTACT_TO: _to, SITEBEAM_CONTACT_FROM: _from, ...chatOnly } = env();
    const { SITEBEAM_SITE_NAME: _name, ...chatOnlyEnv } = chatOnly;
    for (const [variables, value, problem] of [
      [env(), 'http://relay.example.test', 'must use https'],
      [env(), 'https://relay.example.test/contact', 'must be an origin'],
      [chatOnlyEnv, 'relay.example.test', 'must be an http(s) URL'],
    ] as const) {
      const { code, output } = await runRelayOnce({ ...variables, SITEBEAM_PUBLIC_URL: value });
      expect(code, value).toBe(1);
      expect(output).toContain(`sitebeam-relay: not started: SITEBEAM_PUBLIC_URL ${problem}`);
    }
  });
});
