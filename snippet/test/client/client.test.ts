import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  baseUrlProblem,
  connectOrigin,
  createClient,
  isLoopbackHost,
  SitebeamApiError,
} from '../../src/client/index.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('createClient refuses to follow redirects', () => {
  for (const status of [301, 302, 303, 307, 308]) {
    it(`a ${status} is an upstream failure naming the redirect; the target never sees the token`, async () => {
      const seenByTarget: IncomingHttpHeaders[] = [];
      const target = await listen((request, response) => {
        seenByTarget.push(request.headers);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"status":"ok","id":"x"}');
      });
      const api = await listen((_request, response) => {
        response.writeHead(status, { location: `${target}/v1/email` });
        response.end();
      });
      const client = createClient({ baseUrl: api, token: 'secret-token' });

      const error = await client.sendEmail({ to: 'a@example.com', subject: 'hi' }).catch((e) => e);

      expect(error).toBeInstanceOf(SitebeamApiError);
      expect(error).toMatchObject({ status, code: 'redirect_refused' });
      expect(error.message).toContain(`${target}/v1/email`);
      expect(error.message).not.toContain('secret-token');
      expect(seenByTarget).toEqual([]);
    });
  }
});

describe('the base URL a token may be sent to', () => {
  it('accepts https anywhere and http only on loopback', () => {
    for (const ok of [
      'https://api.example',
      'https://api.example/',
      'https://api.example:8443',
      'http://127.0.0.1:8787',
      'http://127.1.2.3',
      'http://localhost:8787/',
      'http://[::1]:8787',
    ]) {
      expect(baseUrlProblem(ok), ok).toBeUndefined();
      expect(() => createClient({ baseUrl: ok, token: 't' })).not.toThrow();
    }
  });

  it('refuses, naming the problem, anything that could carry the token elsewhere or in clear', () => {
    const cases: Array<[string, RegExp]> = [
      ['http://api.example', /https/],
      ['http://10.0.0.5', /https/],
      ['http://127.0.0.1.evil.example', /https/],
      ['ftp://api.example', /http\(s\)/],
      ['api.example', /must be an https URL/],
      ['https://user:pw@api.example', /user name/],
      ['https://api.example/x?', /query/],
      ['https://api.example/#frag', /fragment/],
      ['https://api.example/base', /without a path/],
    ];
    for (const [url, problem] of cases) {
      expect(baseUrlProblem(url), url).toMatch(problem);
      expect(() => createClient({ baseUrl: url, token: 't' }), url).toThrow(TypeError);
    }
  });

  it('knows loopback names and addresses', () => {
    expect(
      ['localhost', 'app.localhost', '127.0.0.1', '127.9.9.9', '::1', '[::1]'].every(
        isLoopbackHost,
      ),
    ).toBe(true);
    expect(
      ['example.com', '10.0.0.1', '128.0.0.1', '::2', 'localhost.example'].some(isLoopbackHost),
    ).toBe(false);
  });
});

describe('localhost names never go to DNS', () => {
  it.each([
    ['http://localhost:8787', 'http://127.0.0.1:8787'],
    ['http://evil.LOCALHOST:9/', 'http://127.0.0.1:9'],
    ['http://a.b.localhost', 'http://127.0.0.1'],
    ['https://app.localhost', 'https://app.localhost'],
    ['http://127.0.0.2:1', 'http://127.0.0.2:1'],
    ['https://api.example.com/', 'https://api.example.com'],
    ['http://localhost.example.test', 'http://localhost.example.test'],
  ])('%s is reached at %s', (baseUrl, origin) => {
    expect(connectOrigin(baseUrl)).toBe(origin);
  });

  it('the client sends to 127.0.0.1 what it is told to send to NAME.localhost', async () => {
    const url = await listen((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"status":"ok","models":[]}');
    });
    const baseUrl = url.replace('127.0.0.1', 'sitebeam-nowhere.localhost');
    const requested: string[] = [];
    const client = createClient({
      baseUrl,
      token: 't',
      fetch: (input, init) => {
        requested.push(String(input));
        return fetch(input, init);
      },
    });
    expect(await client.listModels()).toEqual({ status: 'ok', models: [] });
    expect(requested).toEqual([`${url}/v1/ai/models`]);
  });
});

describe("SitebeamApiError carries the instance's reason", () => {
  const answering = (status: number, body: unknown) =>
    listen((_request, response) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    });

  it('of a refused field: its words alone, the field beside them', async () => {
    const api = await answering(422, {
      detail: [{ loc: ['body', 'to'], msg: 'value is not a valid email address', type: 'x' }],
    });
    const client = createClient({ baseUrl: api, token: 't' });
    const error = await client.sendEmail({ to: 'a@example.com', subject: 'hi' }).catch((e) => e);
    expect(error).toMatchObject({
      status: 422,
      field: 'to',
      reason: 'value is not a valid email address',
      message: 'to: value is not a valid email address',
    });
  });

  it('of an error answer: its error text; none when the answer has no text', async () => {
    const said = await answering(403, { error: 'Email API not enabled', i18n_code: 'x_y' });
    const error = await createClient({ baseUrl: said, token: 't' })
      .sendEmail({ to: 'a@example.com', subject: 'hi' })
      .catch((e) => e);
    expect(error).toMatchObject({ status: 403, reason: 'Email API not enabled', field: undefined });
    const silent = await answering(500, {});
    const bare = await createClient({ baseUrl: silent, token: 't' })
      .sendEmail({ to: 'a@example.com', subject: 'hi' })
      .catch((e) => e);
    expect(bare).toMatchObject({ status: 500, message: 'HTTP 500', reason: undefined });
  });
});
