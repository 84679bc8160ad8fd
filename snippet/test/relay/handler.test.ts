// The relay's rules one by one. The API behind it is a recording fake here; relay-stub.test.ts
// runs the same handler against the real stub.
import { describe, expect, it, vi } from 'vitest';
import type { EmailMessage } from '../../src/client/index.js';
import { createRelayHandler, type RelayConfig } from '../../src/relay/index.js';
import { site, ticketedShopConfig, visitor } from './shop-relay.js';

const token = ticketedShopConfig.apiToken;

function relay(overrides: Partial<RelayConfig> = {}) {
  const sent: EmailMessage[] = [];
  const log = vi.fn();
  const fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
    sent.push(JSON.parse(init?.body as string));
    return new Response(JSON.stringify({ status: 'ok', id: 'mail-1' }), { status: 200 });
  });
  const handler = createRelayHandler({
    ...ticketedShopConfig,
    fetch: fetch as typeof globalThis.fetch,
    log,
    ...overrides,
  });
  return { handler, sent, fetch, log };
}

function jsonPost(body: unknown, headers: Record<string, string> = {}) {
  return new Request(`${site}/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: site, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

function formPost(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return new Request(`${site}/contact`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: site,
      referer: `${site}/contact-us?lang=en`,
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

/** A JSON post from a page on `origin` to the relay at `url`. */
function ownPagePost(url: string, origin: string) {
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify(visitor),
  });
}

async function refusedField(body: Record<string, unknown>) {
  const { handler, fetch } = relay();
  const response = await handler(jsonPost(body));
  expect(response.status).toBe(400);
  expect(fetch).not.toHaveBeenCalled();
  const answer = await response.json();
  expect(answer.status).toBe('ko');
  expect(answer.i18n_code).toBe('invalid_field');
  return answer.field as string;
}

describe('a JSON post', () => {
  it('sends one message and answers ok with CORS for the page', async () => {
    const { handler, sent } = relay();
    const response = await handler(jsonPost(visitor));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      message: 'Thank you, your message was sent.',
    });
    expect(response.headers.get('access-control-allow-origin')).toBe(site);
    expect(response.headers.get('vary')).toContain('Origin');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      to: 'owner@shop.example',
      from: 'forms@shop.example',
      replyto: 'ada@example.com',
      subject: '[Example Shop] Hi',
    });
  });

  it('never lets the visitor choose the recipient or the sender', async () => {
    const { handler, sent } = relay();
    await handler(
      jsonPost({
        ...visitor,
        to: 'eve@evil.example',
        from: 'ceo@shop.example',
        bcc: 'x@evil.example',
      }),
    );
    expect(sent[0]?.to).toBe('owner@shop.example');
    expect(sent[0]?.from).toBe('forms@shop.example');
    expect(sent[0]?.bcc).toBeUndefined();
  });
});

describe('field rules', () => {
  it('requires name, email and message', async () => {
    expect(await refusedField({ ...visitor, name: '  ' })).toBe('name');
    expect(await refusedField({ ...visitor, email: undefined })).toBe('email');
    expect(await refusedField({ ...visitor, message: '' })).toBe('message');
  });

  it('refuses CR or LF in every single-line field (header injection)', async () => {
    expect(await refusedField({ ...visitor, name: 'Ada\r\nBcc: eve@evil.example' })).toBe('name');
    expect(await refusedField({ ...visitor, subject: 'Hi\nBcc: eve@evil.example' })).toBe(
      'subject',
    );
    expect(
      await refusedField({ ...visitor, email: 'ada@example.com\nbcc: eve@evil.example' }),
    ).toBe('email');
  });

  it('refuses an invalid address and a list of addresses', async () => {
    expect(await refusedField({ ...visitor, email: 'ada' })).toBe('email');
    expect(await refusedField({ ...visitor, email: 'ada@example.com,eve@evil.example' })).toBe(
      'email',
    );
    expect(await refusedField({ ...visitor, email: 'Ada <ada@example.com>' })).toBe('email');
  });

  it('refuses, as the email field, every address the API itself would refuse', async () => {
    for (const email of [
      'ada@example..com',
      'ada@-example.com',
      'ada@example',
      '.ada@example.com x',
    ]) {
      expect(await refusedField({ ...visitor, email }), email).toBe('email');
    }
  });

  it('refuses oversized fields and accepts them at the limit', async () => {
    expect(await refusedField({ ...visitor, name: 'n'.repeat(201) })).toBe('name');
    expect(await refusedField({ ...visitor, subject: 's'.repeat(201) })).toBe('subject');
    expect(await refusedField({ ...visitor, message: 'm'.repeat(10_001) })).toBe('message');
    const { handler } = relay();
    const atLimit = {
      name: 'n'.repeat(200),
      subject: 's'.repeat(200),
      message: 'é'.repeat(10_000),
    };
    expect((await handler(jsonPost({ ...visitor, ...atLimit }))).status).toBe(200);
  });

  it('refuses a field that is not text', async () => {
    expect(await refusedField({ ...visitor, message: { $gt: '' } })).toBe('message');
  });

  it('answers 400 to a body that is not a JSON object', async () => {
    const { handler } = relay();
    for (const body of ['{"name":', '[1,2]', 'null']) {
      const response = await handler(jsonPost(body));
      expect(response.status, body).toBe(400);
      expect((await response.json()).i18n_code).toBe('invalid_field');
    }
  });
});

describe('spam and abuse', () => {
  it('refuses a filled honeypot', async () => {
    const { handler, fetch } = relay();
    const response = await handler(jsonPost({ ...visitor, homepage: 'http://spam.example' }));
    expect(response.status).toBe(400);
    expect((await response.json()).i18n_code).toBe('spam_suspected');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('limits posts per visitor per minute with Retry-After', async () => {
    const { handler, sent } = relay({ rateLimitPerMinute: 2 });
    const from = (ip: string) => ({ clientIp: ip });
    expect((await handler(jsonPost(visitor), from('203.0.113.7'))).status).toBe(200);
    expect((await handler(jsonPost(visitor), from('203.0.113.7'))).status).toBe(200);
    const third = await handler(jsonPost(visitor), from('203.0.113.7'));
    expect(third.status).toBe(429);
    expect((await third.json()).i18n_code).toBe('rate_limited');
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await handler(jsonPost(visitor), from('198.51.100.9'))).status).toBe(200);
    expect(sent).toHaveLength(3);
  });

  it('believes the client address header only when configured to', async () => {
    const { handler } = relay({ rateLimitPerMinute: 1, clientIpHeader: 'cf-connecting-ip' });
    const via = (ip: string) => jsonPost(visitor, { 'cf-connecting-ip': ip });
    expect((await handler(via('203.0.113.1'), { clientIp: '10.0.0.1' })).status).toBe(200);
    expect((await handler(via('203.0.113.2'), { clientIp: '10.0.0.1' })).status).toBe(200);
    expect((await handler(via('203.0.113.1'), { clientIp: '10.0.0.1' })).status).toBe(429);

    const untrusting = relay({ rateLimitPerMinute: 1 }).handler;
    expect((await untrusting(via('203.0.113.1'), { clientIp: '10.0.0.1' })).status).toBe(200);
    expect((await untrusting(via('203.0.113.2'), { clientIp: '10.0.0.1' })).status).toBe(429);
  });

  it('refuses a body over 64 KiB with 413', async () => {
    const { handler, fetch } = relay();
    const response = await handler(jsonPost({ ...visitor, padding: 'x'.repeat(70_000) }));
    expect(response.status).toBe(413);
    expect((await response.json()).i18n_code).toBe('payload_too_large');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('refuses a body that is neither JSON nor form-encoded with 415', async () => {
    const { handler } = relay();
    const response = await handler(
      jsonPost('name=Ada', { 'content-type': 'text/plain;charset=UTF-8' }),
    );
    expect(response.status).toBe(415);
    expect((await response.json()).i18n_code).toBe('unsupported_media_type');
  });
});

describe('origins and CORS', () => {
  it('refuses a post from a page on another origin, without CORS headers', async () => {
    const { handler, fetch } = relay();
    const response = await handler(jsonPost(visitor, { origin: 'https://evil.example' }));
    expect(response.status).toBe(403);
    expect((await response.json()).i18n_code).toBe('forbidden_origin');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('refuses the opaque origin "null" and a foreign Referer when Origin is absent', async () => {
    const { handler } = relay();
    expect((await handler(jsonPost(visitor, { origin: 'null' }))).status).toBe(403);
    const refererOnly = new Request(`${site}/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', referer: 'https://evil.example/page' },
      body: JSON.stringify(visitor),
    });
    expect((await handler(refererOnly)).status).toBe(403);
  });

  it('answers the pre-flight of an allowed origin and refuses another', async () => {
    const { handler } = relay();
    const preflight = (origin: string) =>
      new Request(`${site}/contact`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
    const allowed = await handler(preflight(site));
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(site);
    expect(allowed.headers.get('access-control-allow-methods')).toBe('GET, POST');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('content-type');
    const refused = await handler(preflight('https://evil.example'));
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows a page on publicUrl, whatever Host the request names', async () => {
    // Behind a TLS proxy the Node adapter sees http://…; the pinned origin is the one pages have.
    const { handler } = relay({ publicUrl: 'https://relay.example/' });
    for (const url of ['http://relay.example/contact', 'http://10.0.0.7:8788/contact']) {
      const response = await handler(ownPagePost(url, 'https://relay.example'));
      expect(response.status, url).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('https://relay.example');
    }
  });

  it('with publicUrl, refuses a page on the Host-derived origin, loopback or rebound', async () => {
    const { handler, fetch, log } = relay({ publicUrl: 'https://relay.example' });
    for (const own of ['http://evil.example', 'http://127.0.0.1:8788']) {
      const response = await handler(ownPagePost(`${own}/contact`, own));
      expect(response.status, own).toBe(403);
      expect((await response.json()).i18n_code).toBe('forbidden_origin');
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
    expect(fetch).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });

  it('without publicUrl, counts its own origin only at a name DNS rebinding cannot forge', async () => {
    const { handler } = relay();
    for (const own of [
      'http://localhost:8788',
      'http://relay.localhost:8788',
      'http://127.0.0.1:8788',
      'http://192.0.2.7',
      'http://[::1]:8788',
    ]) {
      expect((await handler(ownPagePost(`${own}/contact`, own))).status, own).toBe(200);
    }
  });

  it('without publicUrl, refuses a rebound name, and logs how to fix it once', async () => {
    const { handler, fetch, log } = relay();
    for (const own of ['http://evil.example', 'https://relay.example', 'http://evil.example']) {
      const response = await handler(ownPagePost(`${own}/contact`, own));
      expect(response.status, own).toBe(403);
      expect((await response.json()).i18n_code).toBe('forbidden_origin');
    }
    const withRefererOnly = new Request('http://evil.example/contact', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        referer: 'http://evil.example/form',
      },
      body: new URLSearchParams(visitor).toString(),
    });
    expect((await handler(withRefererOnly)).status).toBe(403);
    expect(fetch).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]?.[0]).toMatch(
      /refused a page on http:\/\/evil\.example, the relay's own Host: .*set SITEBEAM_PUBLIC_URL/,
    );
  });

  it('answers 405 to a PUT, naming the methods it takes', async () => {
    const { handler } = relay();
    const response = await handler(new Request(`${site}/contact`, { method: 'PUT' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST, OPTIONS');
    expect((await response.json()).i18n_code).toBe('method_not_allowed');
  });
});

describe('a form-encoded post (no JavaScript)', () => {
  it('sends and redirects back to the form page with sent=1', async () => {
    const { handler, sent } = relay();
    const response = await handler(formPost(visitor));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`${site}/contact-us?lang=en&sent=1`);
    expect(sent).toHaveLength(1);
  });

  it('redirects to the configured page when the Referer is missing or only an origin', async () => {
    const { handler } = relay({ redirectUrl: `${site}/thanks` });
    for (const referer of ['', `${site}/`]) {
      const response = await handler(formPost(visitor, { referer }));
      expect(response.headers.get('location'), referer).toBe(`${site}/thanks?sent=1`);
    }
  });

  it('without a configured page, returns to the Referer origin, else the first allowed origin', async () => {
    const { handler } = relay({ allowedOrigins: [site, 'https://www.shop.example'] });
    const fromWww = await handler(
      formPost(visitor, {
        origin: 'https://www.shop.example',
        referer: 'https://www.shop.example/',
      }),
    );
    expect(fromWww.headers.get('location')).toBe('https://www.shop.example/?sent=1');
    const noReferer = await handler(formPost(visitor, { referer: 'not a url' }));
    expect(noReferer.headers.get('location')).toBe(`${site}/?sent=1`);
  });

  it('answers a refusal with a small HTML page that names the problem and links back', async () => {
    const { handler } = relay();
    const response = await handler(formPost({ ...visitor, email: 'nope' }));
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('text/html');
    const page = await response.text();
    expect(page).toContain('Email is not a valid email address.');
    expect(page).toContain(`href="${site}/contact-us?lang=en"`);
  });
});

describe('answers of the API', () => {
  const apiAnswering = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers }));

  const cases: [string, () => typeof globalThis.fetch, number, string][] = [
    [
      '401',
      () =>
        apiAnswering(401, {
          status: 'ko',
          error: 'bad token',
          i18n_code: 'auth_failed',
          cid: 'c1',
        }),
      503,
      'not_configured',
    ],
    [
      '403',
      () =>
        apiAnswering(403, {
          status: 'ko',
          error: 'no email',
          i18n_code: 'not_emailapi',
          cid: 'c2',
        }),
      503,
      'not_configured',
    ],
    [
      '429',
      () =>
        apiAnswering(
          429,
          { status: 'ko', error: 'slow', i18n_code: 'rate_limited' },
          { 'retry-after': '30' },
        ),
      429,
      'rate_limited',
    ],
    ['500', () => apiAnswering(500, { status: 'ko', error: 'boom' }), 502, 'upstream_failed'],
    [
      "the service's 422 on the owner's recipient",
      () =>
        apiAnswering(422, {
          detail: [{ loc: ['body', 'to'], msg: 'boom', type: 'value_error.email' }],
        }),
      503,
      'not_configured',
    ],
    [
      'the service\'s 500 "Internal server error"',
      () => apiAnswering(500, { detail: 'Internal server error' }),
      502,
      'upstream_failed',
    ],
    [
      'a network failure',
      () =>
        vi.fn(async () => {
          throw new TypeError('fetch failed');
        }),
      502,
      'upstream_failed',
    ],
  ];

  for (const [answer, fetch, status, code] of cases) {
    it(`maps ${answer} to ${status} ${code}, logging the cause and hiding it from the visitor`, async () => {
      const { handler, log } = relay({ fetch: fetch() });
      const response = await handler(jsonPost(visitor));
      expect(response.status).toBe(status);
      const text = await response.text();
      expect(JSON.parse(text).i18n_code).toBe(code);
      expect(text).not.toContain(token);
      expect(text).not.toContain('owner@shop.example');
      expect(text).not.toMatch(/bad token|no email|boom|fetch failed/);
      expect(log).toHaveBeenCalledOnce();
      expect(log.mock.calls[0]?.[0]).not.toContain(token);
    });
  }

  it("maps the service's 422 on the visitor's address to 400 invalid_field naming email, with the service's reason", async () => {
    const { handler } = relay({
      fetch: apiAnswering(422, {
        detail: [
          {
            loc: ['body', 'replyto'],
            msg: 'value is not a valid email address',
            type: 'value_error.email',
          },
        ],
      }),
    });
    const response = await handler(jsonPost(visitor));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      status: 'ko',
      i18n_code: 'invalid_field',
      field: 'email',
      error: 'The mail service refused this email: value is not a valid email address.',
    });
  });

  it('refuses a visitor address at a special-use domain at once, saying to use another', async () => {
    const { handler, fetch } = relay();
    const response = await handler(jsonPost({ ...visitor, email: 'ana@shop.local' }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      field: 'email',
      error: 'Email cannot be at .local, a name reserved for local use: use another address.',
    });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('passes the API Retry-After on', async () => {
    const { handler } = relay({ fetch: cases[2]?.[1]() });
    expect((await handler(jsonPost(visitor))).headers.get('retry-after')).toBe('30');
  });
});
