// DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1 reaches the stub with
// `Host: evil.example`. The stub's own surface, its pages and the demo relay refuse it; the API
// answers any Host, as a real instance does.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectContractError, startTestStub, useTestStub } from './helpers.js';

const stub = useTestStub({ allowedHosts: ['stub.example.test', '.dev.test'] });
let port: string;
beforeAll(() => {
  port = new URL(stub.url).port;
});

const json = (method: string, body: unknown, headers: Record<string, string> = {}) => ({
  method,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe('a Host the stub does not serve', () => {
  it.each([
    ['GET', '/__stub/emails'],
    ['GET', '/__stub/inbox'],
    ['GET', '/__stub/visits'],
    ['GET', '/__stub/faults'],
    ['GET', '/'],
    ['POST', '/contact'],
  ])('gets 403 host_not_allowed for %s %s, naming the Host and the flag', async (method, path) => {
    const body = await expectContractError(
      await stub.requestAs(`evil.example:${port}`, path, { method }),
      403,
      'host_not_allowed',
    );
    expect(body.error).toContain('evil.example');
    expect(body.error).toContain('--allowed-host');
  });

  it.each(['exa mple.test', '[::1', 'a:b:c'])(
    'gets 400 invalid_request for a malformed Host %j on its own surface',
    async (host) => {
      const body = await expectContractError(
        await stub.requestAs(host, '/__stub/emails', { method: 'GET' }),
        400,
        'invalid_request',
      );
      expect(body.error).toContain('Host');
    },
  );

  it('cannot create an account', async () => {
    await expectContractError(
      await stub.requestAs(
        'evil.example',
        '/__stub/accounts',
        json('POST', { email: 'attacker@example.com', email_api: true }),
      ),
      403,
      'host_not_allowed',
    );
    const again = await stub.request(
      '/__stub/accounts',
      json('POST', { email: 'attacker@example.com', email_api: true }),
    );
    expect(again.status).toBe(201);
  });

  it.each([
    'evil.example',
    'localhost.evil.example',
    'stub.example.test.evil.example',
    'notdev.test',
    '127.0.0.1.nip.io',
  ])('%s is refused', async (host) => {
    expect((await stub.requestAs(host, '/__stub/emails')).status).toBe(403);
  });

  it('still reaches the API, which a real instance answers for any Host', async () => {
    const visit = await stub.requestAs('evil.example', '/v1/tracker/json/any-host.example');
    expect(visit.status).toBe(200);
    expect((await stub.requestAs('evil.example', '/openapi.json')).status).toBe(200);
    const models = await stub.requestAs('evil.example', '/v1/ai/models', {
      headers: { 'x-auth-token': 'dev-token' },
    });
    expect(models.status).toBe(200);
  });
});

describe('the hosts the stub serves', () => {
  it.each([
    () => `127.0.0.1:${port}`,
    () => '127.0.0.1',
    () => `localhost:${port}`,
    () => 'LOCALHOST',
    () => `[::1]:${port}`,
    () => '[::1]',
    () => `app.localhost:${port}`,
    () => '192.0.2.7:8080',
    () => '[2001:db8::1]',
    () => `stub.example.test:${port}`,
    () => 'dev.test',
    () => `api.dev.test:${port}`,
  ])('answers Host %#', async (host) => {
    const response = await stub.requestAs(host(), '/__stub/emails');
    expect(response.status, host()).toBe(200);
  });

  it('answers the name --host gives', async () => {
    const named = await startTestStub({ host: 'my-stub.internal' });
    try {
      expect((await named.requestAs('my-stub.internal', '/__stub/visits')).status).toBe(200);
      expect((await named.requestAs('other.internal', '/__stub/visits')).status).toBe(403);
    } finally {
      await named.close();
    }
  });
});

describe('the demo relay’s allowed origins', () => {
  const preflight = (host: string, origin: string) =>
    stub.requestAs(host, '/contact', {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST' },
    });

  it('come from configuration, whatever Host the first request carried', async () => {
    // The first request to the relay comes through 127.0.0.1; a page on another served host is
    // still allowed, and a foreign page never is.
    const first = await preflight(`127.0.0.1:${port}`, `http://localhost:${port}`);
    expect(first.status).toBe(204);
    expect(first.headers.get('access-control-allow-origin')).toBe(`http://localhost:${port}`);
    const named = await preflight(`127.0.0.1:${port}`, `http://stub.example.test:${port}`);
    expect(named.status).toBe(204);
    const foreign = await preflight(`127.0.0.1:${port}`, 'http://evil.example');
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });
});
