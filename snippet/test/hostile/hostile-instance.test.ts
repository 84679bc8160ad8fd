// The hostile-instance suite: a fake instance answers what a broken, compromised or impersonated
// one could (escape sequences, HTML, wrong types, non-JSON, a body without end), and the CLI (the
// built command), the typed client and the relay (the built command: JSON and its page without
// JavaScript) are run against it. Nothing raw reaches a terminal, a page or a log; every failure
// is said as one; no 500; the relay keeps serving.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, limits, SitebeamApiError } from '../../src/client/index.js';
import { chatPage } from '../../src/relay/chat-page.js';
import { runCli, temporaryHome } from '../cli/run-cli.js';
import { type RunningRelay, startRelay } from '../relay/start-relay.js';
import {
  ENDLESS_LIMIT_BYTES,
  type HostileAnswer,
  type HostileInstance,
  startHostileInstance,
} from './hostile-instance.js';

const TOKEN = 'hostile-test-token-7f3a';
const ESC = '\u001b';
const escapes = `${ESC}]0;owned\u0007${ESC}[2J${ESC}[31m\u009b1m`;
// What may not reach a terminal or a log raw: C0 controls but TAB and LF, DEL, C1.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
const rawControl = /[\x00-\x08\x0B-\x1F\x7F-\x9F]/;
const site = 'https://shop.example';
const model = 'nltksentiment';
const json = (status: number, body: unknown): HostileAnswer => ({
  status,
  body: JSON.stringify(body),
});

interface Case {
  name: string;
  answer: HostileAnswer;
  /** The instance's answer is usable: shown (made safe), not refused. */
  usable: boolean;
}

const promptCases: Case[] = [
  {
    name: 'escape sequences in the answer',
    answer: json(200, { status: 'ok', response: [`${escapes}hello`, 'line 2'], score: 0.5 }),
    usable: true,
  },
  {
    name: 'escape sequences and the token in an error text',
    answer: json(400, {
      status: 'ko',
      error: `${escapes}token ${TOKEN} refused\nsecond line`,
      i18n_code: `invalid_payload${ESC}[31m`,
      cid: `${ESC}[2J`,
    }),
    usable: false,
  },
  {
    name: 'a score that is HTML',
    answer: json(200, { status: 'ok', response: ['hi'], score: '<img src=x onerror=alert(1)>' }),
    usable: false,
  },
  {
    name: 'a response that is a string',
    answer: json(200, { status: 'ok', response: 'a string', score: 1 }),
    usable: false,
  },
  {
    name: 'a response of an object and a number',
    answer: json(200, { status: 'ok', response: [{}, 7], score: 1 }),
    usable: false,
  },
  {
    name: 'non-JSON with escape sequences',
    answer: { status: 200, contentType: 'text/plain', body: `${escapes}maintenance` },
    usable: false,
  },
  {
    name: 'an HTML page with 200',
    answer: {
      status: 200,
      contentType: 'text/html',
      body: '<html><body><img src=x onerror=alert(1)>Down for maintenance</body></html>',
    },
    usable: false,
  },
  { name: 'an empty 200', answer: { status: 200, body: '' }, usable: false },
  {
    name: 'a body far over 1 MiB',
    answer: { status: 200, body: { endless: true } },
    usable: false,
  },
];

let instance: HostileInstance;
let relay: RunningRelay;
const home = temporaryHome();

beforeAll(async () => {
  instance = await startHostileInstance();
  relay = await startRelay({
    SITEBEAM_API_URL: instance.url,
    SITEBEAM_API_TOKEN: TOKEN,
    SITEBEAM_ALLOWED_ORIGINS: site,
    SITEBEAM_CHAT_MODELS: model,
    SITEBEAM_CHAT_RATE_LIMIT_PER_MINUTE: '1000',
  });
});
afterAll(async () => {
  await relay?.stop();
  await instance?.close();
  home.remove();
});

const cli = (...args: string[]) =>
  runCli(args, {
    home: home.path,
    env: { SITEBEAM_API_URL: instance.url, SITEBEAM_API_TOKEN: TOKEN },
  });

function expectNoRawControl(text: string) {
  expect(text).not.toMatch(rawControl);
}

describe.each(promptCases)('an instance answering $name', ({ answer, usable }) => {
  beforeAll(() => {
    instance.answer = answer;
  });

  it('the CLI shows it made safe, or says it failed with a non-zero exit', async () => {
    const { code, stdout, stderr } = await cli('prompt', model, 'hi');
    expectNoRawControl(stdout + stderr);
    if (usable) {
      expect(code).toBe(0);
      expect(stdout).toContain('\\e]0;owned\\x07\\e[2J\\e[31m\\x9b1mhello');
    } else {
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^sitebeam: .+/);
      expect(stderr).not.toContain('<img');
    }
  });

  it('the CLI with --json prints valid JSON, every control escaped', async () => {
    const { code, stdout, stderr } = await cli('--json', 'prompt', model, 'hi');
    expectNoRawControl(stdout + stderr);
    expect(code).toBe(usable ? 0 : 1);
    const printed = JSON.parse(stdout);
    if (!usable) expect(printed.status === 'ko' || printed.status === 'ok').toBe(true);
  });

  it('the typed client resolves a checked answer or rejects with a SitebeamApiError', async () => {
    const outcome = await createClient({ baseUrl: instance.url, token: TOKEN })
      .prompt({ model, message: 'hi' })
      .catch((error: unknown) => error);
    if (usable) {
      expect(outcome).toMatchObject({ status: 'ok', response: [`${escapes}hello`, 'line 2'] });
      return;
    }
    expect(outcome).toBeInstanceOf(SitebeamApiError);
    const { code, status } = outcome as SitebeamApiError;
    expect(code).toBe(status === 200 ? 'invalid_response' : `invalid_payload${ESC}[31m`);
  });

  it("the relay's /chat answers JSON: the answer or upstream_failed, never a 500", async () => {
    const response = await fetch(`${relay.url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: site },
      body: JSON.stringify({ message: 'hi' }),
    });
    const body = await response.json();
    if (usable) {
      expect(response.status).toBe(200);
      expect(body).toMatchObject({ status: 'ok', score: 0.5 });
    } else {
      expect(response.status).toBe(502);
      expect(body).toMatchObject({ status: 'ko', i18n_code: 'upstream_failed' });
      expect(JSON.stringify(body)).not.toContain('img');
    }
  });

  it("the relay's page without JavaScript escapes everything and keeps the message", async () => {
    const response = await fetch(`${relay.url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: site },
      body: 'message=my+question',
    });
    const html = await response.text();
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('onerror=alert');
    expect(html).toContain('my question');
    if (usable) {
      expect(response.status).toBe(200);
      expect(html).toContain('<p>Score: 0.5</p>');
    } else {
      expect(response.status).toBe(502);
      expect(html).toContain('<p role="alert">');
    }
  });
});

describe('other answers carrying escape sequences, through the CLI', () => {
  it('model names', async () => {
    instance.answer = json(200, { status: 'ok', models: [`${escapes}evil`, 'mock'] });
    const { code, stdout } = await cli('models');
    expect(code).toBe(0);
    expectNoRawControl(stdout);
    expect(stdout).toContain('\\e]0;owned\\x07\\e[2J\\e[31m\\x9b1mevil\nmock');
  });

  it("an email's error text, and the explanation beside --json", async () => {
    instance.answer = json(401, { status: 'ko', error: escapes, i18n_code: `auth_failed${ESC}c` });
    const args = ['email', '--to', 'a@example.com', '--subject', 's', '--content', 'c'];
    for (const extra of [[], ['--json']]) {
      const { code, stdout, stderr } = await cli(...extra, ...args);
      expect(code).toBe(3);
      expectNoRawControl(stdout + stderr);
      expect(stderr).toContain('the instance refused the token');
      expect(stderr).toContain('\\e]0;owned');
    }
  });

  it('a tracker record', async () => {
    const unknown = 'unknown';
    const infos = Object.fromEntries(
      ['region', 'country', 'region_code', 'country_iso', 'lookup', 'timezone', 'utc_offset']
        .concat(['currency', 'asn', 'org', 'ip', 'network', 'version', 'hostname', 'loc'])
        .map((field) => [field, unknown]),
    );
    instance.answer = json(200, {
      status: 'ok',
      type: 'tracker',
      time: '2026-01-01T00:00:00.000000',
      host: `${ESC}[2J127.0.0.1`,
      user_agent: `curl${escapes}`,
      os: 'linux',
      device: 'computer',
      browser: `${ESC}]0;title\u0007curl`,
      details: { brand: unknown, type: unknown },
      referrer: 'None',
      website: 'example.com',
      infos: { ...infos, status: 'ok', status_code: 200, city: `${ESC}[31mParis` },
      level: 'INFO',
      cid: 'c',
    });
    for (const extra of [[], ['--json']]) {
      const { code, stdout, stderr } = await cli(...extra, 'track', 'example.com');
      expect(code).toBe(0);
      expectNoRawControl(stdout + stderr);
    }
    expect((await cli('track', 'example.com')).stdout).toContain('\\e[31mParis');
  });
});

describe('a body without end', () => {
  it('is refused by the typed client after 1 MiB, without reading the rest', async () => {
    instance.answer = { status: 200, body: { endless: true } };
    const error = await createClient({ baseUrl: instance.url, token: TOKEN })
      .listModels()
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'invalid_response' });
    expect((error as Error).message).toContain(`more than ${limits.answerBytes} bytes`);
    // The client stopped reading; the instance's writes stalled long before the end.
    await new Promise((settled) => setTimeout(settled, 200));
    expect(instance.endlessBytesSent).toBeLessThan(ENDLESS_LIMIT_BYTES);
  });
});

describe('the relay after all of this', () => {
  it('still serves, and its log has one line per event, nothing raw, no token', async () => {
    const listing = await fetch(`${relay.url}/chat`, { headers: { origin: site } });
    expect(listing.status).toBe(200);
    expect(await listing.json()).toEqual({ status: 'ok', models: [model] });
    const log = relay.output();
    expectNoRawControl(log);
    expect(log).not.toContain(TOKEN);
    expect(log).toContain('[token] refused\\nsecond line');
  });
});

describe("the relay's chat page, given a score that is not a number", () => {
  it('leaves the score out rather than writing it as it came', () => {
    const html = chatPage({
      action: '/chat',
      backUrl: undefined,
      models: [model],
      prompt: {},
      outcome: { status: 'ok', model, response: ['hi'], score: '<img src=x>' as unknown as number },
      asked: 'question',
    });
    expect(html).not.toContain('<img');
    expect(html).not.toContain('Score:');
  });
});
