// The relay against the real stub over HTTP: a delivered message, the API's 401/403/429/500
// and a dead API mapped for the visitor, and the `sitebeam-relay` command itself.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../tests/support/free-port.ts';
import { type RunningStub, startStub } from '../../../tests/support/stub-server.ts';
import { createRelayHandler, type RelayConfig } from '../../src/relay/index.js';
import { createTicketIssuer, ticketKey } from '../../src/relay/ticket.js';
import { rawPost } from './raw-post.ts';
import {
  type RunningRelay,
  relayEnv,
  runRelayOnce,
  testSite as site,
  startRelay,
} from './start-relay.ts';

const visitor = {
  name: 'Ada <b>Lovelace</b>',
  email: 'ada@example.com',
  subject: 'Hello',
  message: 'Line 1\n<script>alert(1)</script>',
  ticket: await createTicketIssuer(ticketKey('test-secret', ''), 0).issue(Date.now() - 5000),
};
const logged: string[] = [];

let stub: RunningStub;

beforeAll(async () => {
  stub = await startStub();
}, 30_000);
afterAll(() => stub.stop());
beforeEach(async () => {
  logged.length = 0;
  await fetch(`${stub.url}/__stub/emails`, { method: 'DELETE' });
  await fetch(`${stub.url}/__stub/faults`, { method: 'DELETE' });
});

function relay(overrides: Partial<RelayConfig> = {}) {
  return createRelayHandler({
    apiUrl: stub.url,
    apiToken: 'dev-token',
    contactTo: 'dev@example.com',
    contactFrom: 'forms@example.com',
    allowedOrigins: [site],
    siteName: 'Example Shop',
    ticketSecret: 'test-secret',
    rateLimit: 1000,
    apiTimeoutMs: 10_000,
    log: (line) => logged.push(line),
    ...overrides,
  });
}

function post(body: object = visitor) {
  return new Request(`${site}/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: site },
    body: JSON.stringify(body),
  });
}

async function inbox(): Promise<Array<{ message: Record<string, string> }>> {
  return (await (await fetch(`${stub.url}/__stub/emails`)).json()).emails;
}

/** The next send of a mail holding `marker` (text only the test's relay writes) answers `status`. */
async function fault(status: number, marker: string) {
  const response = await fetch(`${stub.url}/__stub/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      faults: [
        { method: 'POST', path_prefix: '/v1/email', status, times: 1, body_contains: marker },
      ],
    }),
  });
  expect(response.ok).toBe(true);
}

describe('the relay handler against the stub', () => {
  it('delivers exactly one message to the configured recipient, visitor text escaped', async () => {
    const response = await relay()(post());
    expect(response.status).toBe(200);
    const emails = await inbox();
    expect(emails).toHaveLength(1);
    const message = emails[0]?.message ?? {};
    expect(message.to).toBe('dev@example.com');
    expect(message.from).toBe('forms@example.com');
    expect(message.replyto).toBe('ada@example.com');
    expect(message.subject).toBe('[Example Shop] Hello');
    expect(message.content).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(message.content).toContain('Ada &lt;b&gt;Lovelace&lt;/b&gt;');
    expect(message.content).not.toContain('<script');
  });

  const mapped = async (handler: ReturnType<typeof relay>, status: number, code: string) => {
    const response = await handler(post());
    const text = await response.text();
    expect(response.status).toBe(status);
    expect(JSON.parse(text).i18n_code).toBe(code);
    expect(text).not.toContain('dev-token');
    expect(text).not.toContain('dev@example.com');
    expect(logged).toHaveLength(1);
    expect(await inbox()).toHaveLength(0);
    return response;
  };

  it('maps 401 (a wrong token) to not_configured', async () => {
    await mapped(relay({ apiToken: 'not-a-token' }), 503, 'not_configured');
    expect(logged[0]).toContain('401 auth_failed');
    expect(logged[0]).not.toContain('not-a-token');
  });

  it('maps 403 (email not enabled for the account) to not_configured', async () => {
    const patch = (emailApi: boolean) =>
      fetch(`${stub.url}/__stub/accounts/dev@example.com`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email_api: emailApi }),
      });
    expect((await patch(false)).ok).toBe(true);
    try {
      await mapped(relay(), 503, 'not_configured');
      expect(logged[0]).toContain('403 not_emailapi');
    } finally {
      await patch(true);
    }
  });

  it('maps 429 to rate_limited with a Retry-After', async () => {
    await fault(429, 'Shop of the 429 test');
    const response = await mapped(relay({ siteName: 'Shop of the 429 test' }), 429, 'rate_limited');
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('maps 500 to upstream_failed, and the next send goes through', async () => {
    await fault(500, 'Shop of the 500 test');
    const handler = relay({ siteName: 'Shop of the 500 test' });
    await mapped(handler, 502, 'upstream_failed');
    expect((await handler(post())).status).toBe(200);
    expect(await inbox()).toHaveLength(1);
  });

  it('maps an unreachable API to upstream_failed', async () => {
    await mapped(relay({ apiUrl: `http://127.0.0.1:${await freePort()}` }), 502, 'upstream_failed');
    expect(logged[0]).toContain('network_error');
  });
});

describe('the sitebeam-relay command', () => {
  const env = () => relayEnv(stub.url, { SITEBEAM_TICKET_SECRET: 'test-secret' });
  let running: RunningRelay | undefined;
  afterAll(() => running?.stop());

  it('refuses to start without configuration, naming the variable', async () => {
    const { SITEBEAM_CONTACT_TO: _omitted, ...withoutRecipient } = env();
    const { code, output } = await runRelayOnce(withoutRecipient);
    expect(code).toBe(1);
    expect(output).toContain('SITEBEAM_CONTACT_TO is not set');
  });

  it('serves the chat alone when none of the contact variables is set', async () => {
    const {
      SITEBEAM_CONTACT_TO: _to,
      SITEBEAM_CONTACT_FROM: _from,
      SITEBEAM_SITE_NAME: _name,
      ...shared
    } = env();
    const chatOnly = await startRelay({ ...shared, SITEBEAM_CHAT_MODELS: 'mock' });
    try {
      const answer = await fetch(`${chatOnly.url}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: site },
        body: JSON.stringify({ message: 'Hello' }),
      });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ status: 'ok', model: 'mock' });
      expect((await fetch(`${chatOnly.url}/contact`)).status).toBe(404);
    } finally {
      await chatOnly.stop();
    }
    const { code, output } = await runRelayOnce({
      ...shared,
      SITEBEAM_CHAT_MODELS: 'mock',
      SITEBEAM_SITE_NAME: 'Example Shop',
    });
    expect(code).toBe(1);
    expect(output).toContain('SITEBEAM_CONTACT_TO is not set');
  });

  it('serves the relay over HTTP: a JSON post, then a native form post redirected back', async () => {
    running = await startRelay(env());
    const json = await fetch(`${running.url}/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: site },
      body: JSON.stringify(visitor),
    });
    expect(json.status).toBe(200);
    expect(json.headers.get('access-control-allow-origin')).toBe(site);

    const native = await fetch(`${running.url}/contact`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: site,
        referer: `${site}/contact`,
      },
      body: new URLSearchParams({ ...visitor, homepage: '' }).toString(),
    });
    expect(native.status).toBe(303);
    expect(native.headers.get('location')).toBe(`${site}/contact?sent=1`);
    expect(await inbox()).toHaveLength(2);
  });

  it('limits a visitor to 5 posts a minute by default', async () => {
    const limited = await startRelay(env());
    try {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 6; attempt++) {
        const response = await fetch(`${limited.url}/contact`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: site },
          body: JSON.stringify({ ...visitor, email: 'not-an-address' }),
        });
        statuses.push(response.status);
      }
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    } finally {
      await limited.stop();
    }
  });
});

describe("the stub's /contact (the relay mounted in the stub)", () => {
  it('answers 413 to bodies over the limit without reading them, never 500, counting each', async () => {
    const port = Number(new URL(stub.url).port);
    const big = Buffer.alloc(1024 * 1024, 'a');
    const answers = [
      await rawPost(port, { body: big }),
      await rawPost(port, { body: big, chunked: true }),
      await rawPost(port, {}),
      await rawPost(port, {}),
      await rawPost(port, {}),
      await rawPost(port, {}),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([413, 413, 400, 400, 400, 429]);
    expect(JSON.parse(answers[0]?.body ?? '').i18n_code).toBe('payload_too_large');
  });

  it('answers 400 to a malformed Host, never 500, and counts it toward the rate limit', async () => {
    const own = await startStub();
    try {
      const port = Number(new URL(own.url).port);
      const statuses: number[] = [];
      for (const host of ['exa mple.com', '[::1', 'a b', '[::1', 'x y', '[::1']) {
        statuses.push((await rawPost(port, { host })).status);
      }
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    } finally {
      await own.stop();
    }
  });
});
