import { createClient } from 'sitebeam/client';
import { afterEach, describe, expect, it } from 'vitest';
import { expectContractError, startTestStub, useTestStub } from './helpers.js';

const stub = useTestStub();
afterEach(() => stub.request('/__stub/faults', { method: 'DELETE' }));

const json = (method: string, body: unknown) => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('/__stub/accounts', () => {
  it('creates an account with a generated token, and switches its APIs', async () => {
    const response = await stub.request(
      '/__stub/accounts',
      json('POST', { email: 'new@example.com', email_api: true, ai_api: false }),
    );
    expect(response.status).toBe(201);
    const created = (await response.json()) as {
      token: string;
      email: string;
      email_api: boolean;
      ai_api: boolean;
    };
    expect(created).toMatchObject({
      status: 'ok',
      email: 'new@example.com',
      email_api: true,
      ai_api: false,
    });
    expect(created.token.length).toBeGreaterThanOrEqual(32);

    const client = createClient({ baseUrl: stub.url, token: created.token });
    expect((await client.sendEmail({ to: 'a@example.com', subject: 's' })).status).toBe('ok');
    await expect(client.listModels()).rejects.toMatchObject({ status: 403, code: 'not_cwaiapi' });

    const patched = await stub.request(
      '/__stub/accounts/new@example.com',
      json('PATCH', { ai_api: true, email_api: false }),
    );
    expect(await patched.json()).toEqual({
      status: 'ok',
      email: 'new@example.com',
      email_api: false,
      ai_api: true,
    });
    expect((await client.listModels()).status).toBe('ok');
    await expect(client.sendEmail({ to: 'a@example.com', subject: 's' })).rejects.toMatchObject({
      code: 'not_emailapi',
    });
  });

  it('refuses a duplicate or invalid account, and patching an unknown one', async () => {
    await expectContractError(
      await stub.request('/__stub/accounts', json('POST', { email: 'dev@example.com' })),
      400,
      'invalid_payload',
    );
    await expectContractError(
      await stub.request('/__stub/accounts', json('POST', { email: 'nope' })),
      400,
      'invalid_payload',
    );
    await expectContractError(
      await stub.request(
        '/__stub/accounts',
        json('POST', { email: 'x@example.com', ai_api: 'yes' }),
      ),
      400,
      'invalid_payload',
    );
    await expectContractError(
      await stub.request('/__stub/accounts/ghost@example.com', json('PATCH', { ai_api: true })),
      404,
      'not_found',
    );
  });
});

describe('/__stub/faults', () => {
  it('forces a status for the given times, with the contract error body and Retry-After', async () => {
    await stub.request(
      '/__stub/faults',
      json('PUT', {
        faults: [{ method: 'GET', path_prefix: '/v1/tracker/json/', status: 503, times: 2 }],
      }),
    );
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await stub.request('/v1/tracker/json/site');
      expect(response.headers.get('retry-after')).toBe('1');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const body = await expectContractError(response, 503, 'model_loading');
      expect(body.error).toContain('injected');
    }
    expect((await stub.request('/v1/tracker/json/site')).status).toBe(200);
    expect(await (await stub.request('/__stub/faults')).json()).toEqual({ faults: [] });
  });

  it('matches the method and path prefix, lasts until cleared, and takes an i18n_code', async () => {
    await stub.request(
      '/__stub/faults',
      json('PUT', {
        faults: [{ method: 'POST', path_prefix: '/v1/email', status: 500, i18n_code: 'smtp_down' }],
      }),
    );
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await expectContractError(
        await stub.postJson('/v1/email', { to: 'a@example.com', subject: 's' }),
        500,
        'smtp_down',
      );
    }
    expect((await stub.request('/v1/tracker/json/site')).status).toBe(200);
    await stub.request('/__stub/faults', { method: 'DELETE' });
    expect((await stub.postJson('/v1/email', { to: 'a@example.com', subject: 's' })).status).toBe(
      200,
    );
  });

  it('maps a 429 to rate_limited and a 401 to auth_failed', async () => {
    await stub.request(
      '/__stub/faults',
      json('PUT', {
        faults: [
          { path_prefix: '/v1/email', status: 429, times: 1 },
          { path_prefix: '/v1/ai/', status: 401, times: 1 },
        ],
      }),
    );
    const limited = await stub.postJson('/v1/email', { to: 'a@example.com', subject: 's' });
    expect(limited.headers.get('retry-after')).toBe('1');
    await expectContractError(limited, 429, 'rate_limited');
    await expect(stub.client.listModels()).rejects.toMatchObject({
      status: 401,
      code: 'auth_failed',
    });
  });

  it('delays without changing the answer when no status is given', async () => {
    await stub.request(
      '/__stub/faults',
      json('PUT', { faults: [{ path_prefix: '/v1/tracker/', delay_ms: 300, times: 1 }] }),
    );
    const started = performance.now();
    const response = await stub.request('/v1/tracker/json/slow');
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('applies a rule only to the request whose header or body it names', async () => {
    await stub.request(
      '/__stub/faults',
      json('PUT', {
        faults: [
          {
            path_prefix: '/v1/email',
            status: 503,
            i18n_code: 'outage',
            body_contains: 'case-7',
            retry_after: 30,
          },
          { path_prefix: '/v1/tracker/', status: 500, headers: { 'X-Test-Case': 'tracker-9' } },
        ],
      }),
    );
    // Another test's mail and another test's visit pass, however many times.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const other = await stub.postJson('/v1/email', { to: 'a@example.com', subject: 'case-8' });
      expect(other.status).toBe(200);
      expect((await stub.request('/v1/tracker/json/x')).status).toBe(200);
      const otherCase = await stub.request('/v1/tracker/json/x', {
        headers: { 'x-test-case': 'tracker-10' },
      });
      expect(otherCase.status).toBe(200);
    }
    const meant = await stub.postJson('/v1/email', { to: 'a@example.com', subject: 'case-7' });
    expect(meant.headers.get('retry-after')).toBe('30');
    await expectContractError(meant, 503, 'outage');
    const tracked = await stub.request('/v1/tracker/json/x', {
      headers: { 'x-test-case': 'tracker-9' },
    });
    expect(tracked.status).toBe(500);
    // Both rules are still there: no stray request used them up.
    const { faults } = (await (await stub.request('/__stub/faults')).json()) as {
      faults: unknown[];
    };
    expect(faults).toHaveLength(2);
  });

  it("answers an injected 422 as the service does: FastAPI's validation body", async () => {
    await stub.request(
      '/__stub/faults',
      json('PUT', {
        faults: [{ path_prefix: '/v1/email', status: 422, body_contains: 'case-422', times: 1 }],
      }),
    );
    const refused = await stub.postJson('/v1/email', { to: 'a@example.com', subject: 'case-422' });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({
      detail: [{ loc: ['body'], msg: 'injected by /__stub/faults', type: 'value_error' }],
    });
  });

  it('counts times only on the matching requests', async () => {
    await stub.request(
      '/__stub/faults',
      json('PUT', {
        faults: [{ path_prefix: '/v1/email', status: 429, body_contains: 'mine', times: 1 }],
      }),
    );
    expect(
      (await stub.postJson('/v1/email', { to: 'a@example.com', subject: 'theirs' })).status,
    ).toBe(200);
    expect(
      (await stub.postJson('/v1/email', { to: 'a@example.com', subject: 'mine' })).status,
    ).toBe(429);
    expect(
      (await stub.postJson('/v1/email', { to: 'a@example.com', subject: 'mine' })).status,
    ).toBe(200);
  });

  it('never applies to the stub surface itself, and validates its rules', async () => {
    await stub.request(
      '/__stub/faults',
      json('PUT', { faults: [{ path_prefix: '/', status: 500 }] }),
    );
    expect((await stub.request('/__stub/visits')).status).toBe(200);
    expect((await stub.request('/v1/tracker/json/x')).status).toBe(500);
    await stub.request('/__stub/faults', { method: 'DELETE' });
    await expectContractError(
      await stub.request('/__stub/faults', json('PUT', { faults: [{ status: 500 }] })),
      400,
      'invalid_payload',
    );
    await expectContractError(
      await stub.request(
        '/__stub/faults',
        json('PUT', { faults: [{ path_prefix: 'v1', status: 99 }] }),
      ),
      400,
      'invalid_payload',
    );
    await expectContractError(
      await stub.request(
        '/__stub/faults',
        json('PUT', { faults: [{ path_prefix: '/v1', headers: { 'x-case': 7 } }] }),
      ),
      400,
      'invalid_payload',
    );
  });
});

describe('rate limit (--rate-limit)', () => {
  it('answers 429 rate_limited with Retry-After past the configured calls a minute', async () => {
    const limited = await startTestStub({ rateLimitPerMinute: 2 });
    try {
      expect((await limited.client.listModels()).status).toBe('ok');
      expect((await limited.client.listModels()).status).toBe('ok');
      const response = await limited.request('/v1/ai/models', {
        headers: { 'x-auth-token': 'dev-token' },
      });
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      await expectContractError(response, 429, 'rate_limited');
    } finally {
      await limited.close();
    }
  });
});

describe('unknown paths', () => {
  it.each(['/nope', '/v1/emails', '/v2/email', '/v1/tracker/pixel/x'])(
    'GET %s answers 404 not_found',
    async (path) => {
      await expectContractError(await stub.request(path), 404, 'not_found');
    },
  );
  it('a method the endpoint does not take answers 404 not_found', async () => {
    await expectContractError(await stub.request('/v1/email'), 404, 'not_found');
  });
});
