// Every failure `sitebeam` distinguishes, each from the real stub (or a real socket): its exit
// code, the words a site owner reads, the API's answer with --json, and never the token.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callStub, type RunningStub, startStub } from '../../../tests/support/stub-server.ts';
import { type CliResult, runCli, temporaryHome } from './run-cli.ts';
import { faultNextModelList, rateLimitNextPrompt } from './stub-faults.ts';

// Accepted by neither stub: every refusal below is checked not to repeat it.
const secret = 'wrong-secret-0f9c2d';
let stub: RunningStub;
let slowStub: RunningStub;
const home = temporaryHome();

function sitebeam(args: string[], options: { url?: string; token?: string; input?: string } = {}) {
  return runCli(args, {
    home: home.path,
    input: options.input,
    env: {
      SITEBEAM_API_URL: options.url ?? stub.url,
      SITEBEAM_API_TOKEN: options.token ?? 'dev-token',
    },
  });
}

function expectNoToken(result: CliResult, token = secret) {
  expect(result.stdout).not.toContain(token);
  expect(result.stderr).not.toContain(token);
}

beforeAll(async () => {
  [stub, slowStub] = await Promise.all([
    startStub(['--quiet']),
    startStub(['--quiet', '--no-email', '--load-delay-ms', '3000']),
  ]);
}, 30_000);
afterAll(async () => {
  await Promise.all([stub.stop(), slowStub.stop()]);
  home.remove();
});
afterEach(() => callStub(stub, '/__stub/faults', 'DELETE'));

describe('the API refusing', { timeout: 30_000 }, () => {
  it('401: the token refused → exit 3, and the token is never printed', async () => {
    const text = await sitebeam(['models'], { token: secret });
    expect(text.code).toBe(3);
    expect(text.stderr).toContain('the instance refused the token (401 auth_failed');
    expectNoToken(text);
    const json = await sitebeam(['models', '--json'], { token: secret });
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'ko', i18n_code: 'auth_failed' });
    expectNoToken(json);
  });

  it('403: the account not enabled → exit 4, telling whom to ask', async () => {
    const patch = (enabled: boolean) =>
      callStub(stub, '/__stub/accounts/dev@example.com', 'PATCH', {
        email_api: enabled,
        ai_api: enabled,
      });
    await patch(false);
    try {
      const email = await sitebeam([
        'email',
        '--to',
        'a@example.com',
        '--subject',
        'S',
        '--content',
        'x',
      ]);
      expect(email.code).toBe(4);
      expect(email.stderr).toContain(
        "email sending is not enabled for this account (403 not_emailapi: this account is not enabled for the email API): ask the instance's support or administrator to enable it",
      );
      const ai = await sitebeam(['prompt', 'mock', 'hi', '--json']);
      expect(ai.code).toBe(4);
      expect(ai.stderr).toContain('the AI API is not enabled for this account');
      expect(JSON.parse(ai.stdout)).toMatchObject({ i18n_code: 'not_cwaiapi' });
    } finally {
      await patch(true);
    }
  });

  it("405: the instance's email switched off → exit 5", async () => {
    const { code, stderr } = await sitebeam(
      ['email', '--to', 'a@example.com', '--subject', 'S', '--content', 'x'],
      { url: slowStub.url },
    );
    expect(code).toBe(5);
    expect(stderr).toContain(
      'the instance has email sending switched off (405 disabled_email_service',
    );
  });

  it('429: rate limited → exit 6, with the wait from Retry-After', async () => {
    await rateLimitNextPrompt(stub, 'Am I rate limited?');
    const { code, stderr } = await sitebeam(['prompt', 'mock', 'Am I rate limited?']);
    expect(code).toBe(6);
    expect(stderr).toContain(
      'rate limited (429 rate_limited: injected by /__stub/faults): try again in 1 s',
    );
  });

  it('503: the model still loading → exit 7, with the wait', async () => {
    const { code, stderr } = await sitebeam(['prompt', 'textblobsentiment', 'hi'], {
      url: slowStub.url,
    });
    expect(code).toBe(7);
    expect(stderr).toContain(
      'textblobsentiment is still loading (503 model_loading: model: "textblobsentiment" is still loading): try again in 3 s',
    );
  });

  it('a failure of the instance (500) → exit 1, try again later, with the cid', async () => {
    // A GET has no body: the fault matches the token only this test sends (taken before it is checked).
    const token = 'token-of-the-500-test';
    await faultNextModelList(stub, token, { status: 500 });
    const { code, stderr } = await sitebeam(['models'], { token });
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /the instance failed \(500: injected by \/__stub\/faults, cid [0-9a-f-]{36}\): try again later/,
    );
  });
});

describe('an instance without the AI API (the community release, --ce)', {
  timeout: 30_000,
}, () => {
  it('says so for every AI command (405 → exit 5) while email works', async () => {
    const ce = await startStub(['--quiet', '--ce']);
    try {
      for (const args of [['models'], ['prompt', 'mock', 'hi'], ['load', 'mock']]) {
        const { code, stderr } = await sitebeam(args, { url: ce.url });
        expect(code, args.join(' ')).toBe(5);
        expect(stderr).toContain(
          'this instance has no AI API (its release does not implement it) (405 cwai_not_implemened',
        );
      }
      const email = await sitebeam(
        ['email', '--to', 'a@example.com', '--subject', 'S', '--content', 'x'],
        { url: ce.url },
      );
      expect(email.code).toBe(0);
    } finally {
      await ce.stop();
    }
  });
});

describe('no usable answer', { timeout: 30_000 }, () => {
  let redirecting: Server;
  const seen: Array<{ url?: string; token?: string | string[] }> = [];
  beforeAll(async () => {
    redirecting = createServer((request, response) => {
      seen.push({ url: request.url, token: request.headers['x-auth-token'] });
      response.writeHead(302, { location: 'https://elsewhere.example/collect' }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => redirecting.close(resolve)));
  const redirectingUrl = () => `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`;

  it('an unreachable instance → exit 8', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await sitebeam(['models'], { url: `http://127.0.0.1:${port}`, token: secret });
    expect(result.code).toBe(8);
    expect(result.stderr).toContain(`http://127.0.0.1:${port} could not be reached`);
    expectNoToken(result);
  });

  it('an instance too slow for --timeout → exit 8', async () => {
    const token = 'token-of-the-timeout-test';
    await faultNextModelList(stub, token, { delay_ms: 3000 });
    const { code, stderr } = await sitebeam(['models', '--timeout', '0.5'], { token });
    expect(code).toBe(8);
    expect(stderr).toContain('did not answer within 500 ms');
  });

  it('a redirect is not followed, for the API or the pixel → exit 8, the token sent nowhere else', async () => {
    seen.length = 0;
    const models = await sitebeam(['models'], { url: redirectingUrl(), token: secret });
    expect(models.code).toBe(8);
    expect(models.stderr).toContain('redirects are not followed');
    expectNoToken(models);
    const pixel = await sitebeam(['track', 'shop.example', '--pixel'], {
      url: redirectingUrl(),
      token: secret,
    });
    expect(pixel.code).toBe(8);
    expect(seen).toEqual([
      { url: '/v1/ai/models', token: secret },
      { url: '/v1/tracker/img/shop.example', token: undefined },
    ]);
  });
});

describe('an instance that cannot take a token', { timeout: 30_000 }, () => {
  it('refuses plain http beyond this machine, and a URL with a path (exit 2)', async () => {
    const http = await sitebeam(['models'], { url: 'http://api.example.com' });
    expect(http.code).toBe(2);
    expect(http.stderr).toContain('the URL of SITEBEAM_API_URL must use https');
    const path = await sitebeam(['models'], { url: 'https://api.example.com/v1' });
    expect(path.code).toBe(2);
    expect(path.stderr).toContain('without a path');
  });

  it('without any instance configured → exit 3, saying how to configure one', async () => {
    const { code, stderr } = await runCli(['models'], { home: home.path });
    expect(code).toBe(3);
    expect(stderr).toContain(
      'run `sitebeam login`, or set SITEBEAM_API_URL and SITEBEAM_API_TOKEN',
    );
  });
});
