// The contact protocol's conformance cases (contract/conformance/contact.cases.json) against a relay
// served over real HTTP by toNodeListener, a fresh relay per case, in front of the API the caller
// gives: a fake answering as each case says (conformance.test.ts), the stub or the real service
// (tests/upstream). Given an outbox, the relay keeps what the API fails to take for a passing
// reason, and each case is checked against `expectWithOutbox` where it has one.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import { afterAll, beforeAll, expect } from 'vitest';
import suite from '../../../contract/conformance/contact.cases.json' with { type: 'json' };
import { type RunningRedis, startRedis } from '../../../tests/support/redis-server.ts';
import {
  createRelayHandler,
  type Outbox,
  type OutboxStore,
  type RelayConfig,
  toNodeListener,
} from '../../src/relay/index.js';
import { redisOutbox } from '../../src/relay/outbox/redis-outbox.js';
import { createTicketIssuer, ticketKey } from '../../src/relay/ticket.js';
import { type RawAnswer, rawRequest } from './raw-post.js';

export interface CaseRequest {
  method: string;
  contentType?: string | null;
  headers?: Record<string, string>;
  body?: unknown;
  bodyBytes?: number;
  chunked?: boolean;
}
type HeaderExpectation = string | { contains: string } | { between: [number, number] };
export interface Case {
  id: string;
  rule: string;
  repeat?: number;
  repeatRequest?: CaseRequest;
  /** The owner's settings beyond the defaults. */
  config?: Pick<RelayConfig, 'consent'>;
  apiAnswers?: number | 'unreachable';
  request: CaseRequest;
  expect: Expectation;
  /** What an endpoint with an outbox answers instead (WordPress, Drupal, a relay with a store). */
  expectWithOutbox?: Expectation;
}
interface Expectation {
  status: number;
  i18n_code?: string;
  field?: string | null;
  json?: Record<string, unknown>;
  jsonHas?: string[];
  contentType?: string;
  headers?: Record<string, HeaderExpectation>;
  mailContains?: string[];
  acceptServerRefusal?: boolean;
}

export const cases = suite.cases as unknown as Case[];
const ALLOWED_ORIGIN = 'https://shop.example';
const OTHER_ORIGIN = 'https://evil.example';
const SECRET = 'conformance-ticket-secret';

/** The API behind the relay: where it is, the token it takes, and how to reach it. */
export interface ContactApi {
  apiUrl: string;
  apiToken: string;
  fetch?: typeof fetch;
  /** Every mail the API was asked to send so far, oldest first (the stub's captured mail…). */
  sentMail?: () => Promise<Array<{ content?: string }>>;
}

let listener: ReturnType<typeof toNodeListener>;
const server = createServer((incoming, outgoing) => listener(incoming, outgoing));
let ownOrigin = '';
let selfOrigin = '';

export async function openRelayServer(): Promise<void> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ownOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function closeRelayServer(): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** The fake API's answer to /v1/email in a case that reaches it (`apiAnswers` unset: sent). */
export function apiAnswer(apiAnswers: Exclude<Case['apiAnswers'], 'unreachable'>): Response {
  if (apiAnswers === undefined)
    return Response.json({ status: 'ok', id: 'mail-1' }, { status: 200 });
  const headers: Record<string, string> = apiAnswers === 429 ? { 'retry-after': '30' } : {};
  return Response.json(
    { status: 'ko', error: 'fault', i18n_code: `http_${apiAnswers}`, cid: 'c' },
    { status: apiAnswers, headers },
  );
}

/** The relay's settings in front of `api` for a case, as JSON another runtime can be given. */
export function contactSettings(
  api: Pick<ContactApi, 'apiUrl' | 'apiToken'>,
  config: Case['config'] = {},
) {
  return {
    ...config,
    apiUrl: api.apiUrl,
    apiToken: api.apiToken,
    contactTo: 'owner@shop.example',
    contactFrom: 'forms@shop.example',
    allowedOrigins: [ALLOWED_ORIGIN],
    siteName: 'Example Shop',
    ticketSecret: SECRET,
  };
}

/** The outbox a case's relay keeps messages in: `empty` clears the store before each case. */
export interface CaseOutbox {
  store: OutboxStore;
  empty(): Promise<void>;
}

/**
 * A Redis outbox for the cases of the calling describe block: Debian's redis-server started before
 * them and stopped after; each case's relay gets it emptied.
 */
export function redisOutboxForCases(): () => CaseOutbox {
  let redis: RunningRedis | undefined;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await closeCaseOutbox();
    await redis?.close();
  });
  return () => {
    const { url } = redis as RunningRedis;
    return {
      store: redisOutbox({ url, name: 'conformance Redis' }),
      async empty() {
        const client = createClient({ url });
        await client.connect();
        await client.flushAll();
        client.destroy();
      },
    };
  };
}

/** The outbox of the previous case's relay, closed before the next case starts. */
let openOutbox: Outbox | undefined;

async function relayFor(api: ContactApi, config: Case['config'], outbox?: CaseOutbox) {
  await openOutbox?.close();
  openOutbox = undefined;
  await outbox?.empty();
  const kept: OutboxStore | undefined = outbox
    ? (delivery) => {
        openOutbox = outbox.store(delivery);
        return openOutbox;
      }
    : undefined;
  return createRelayHandler({
    // No case is about the API's slowness: 10 s was outlasted by a stub on a busy machine.
    apiTimeoutMs: 60_000,
    ...contactSettings(api, config),
    ...(api.fetch ? { fetch: api.fetch } : {}),
    ...(kept ? { outbox: kept } : {}),
    log: () => {},
  });
}

/** Closes the last case's outbox (its delivery stops). */
async function closeCaseOutbox(): Promise<void> {
  await openOutbox?.close();
  openOutbox = undefined;
}

/** A relay served by another runtime (workerd, Deno) instead of this process. */
export interface RelayHost {
  /** Where it listens, e.g. http://127.0.0.1:40123 (also its own origin). */
  origin(): string;
  /** Makes a fresh relay there with these settings. */
  serve(settings: ReturnType<typeof contactSettings>): Promise<void>;
}

const placeholder = (value: string) =>
  value
    .replace(/^\$ALLOWED_ORIGIN/, ALLOWED_ORIGIN)
    .replace(/^\$OTHER_ORIGIN/, OTHER_ORIGIN)
    .replace(/^\$SELF_ORIGIN/, selfOrigin);

async function mintTicket(
  spec: { age_ms: number; tamper?: string },
  token: string,
): Promise<string> {
  const secret = spec.tamper === 'secret' ? 'not-the-endpoint-secret' : SECRET;
  const issuer = createTicketIssuer(ticketKey(secret, token), 0);
  const ticket = await issuer.issue(Date.now() - spec.age_ms);
  const [issued = '', signature = ''] = ticket.split('.');
  if (spec.tamper === 'signature') return `${issued}.${'A'.repeat(43)}`;
  if (spec.tamper === 'time') return `${Number(issued) - 60_000}.${signature}`;
  return ticket;
}

/** The body's bytes: placeholders replaced, encoded per the content type. */
async function encodeBody(request: CaseRequest, token: string): Promise<Buffer | undefined> {
  if (request.bodyBytes !== undefined) return Buffer.alloc(request.bodyBytes, 'a');
  if (request.body === undefined) return undefined;
  if (typeof request.body === 'string') return Buffer.from(request.body, 'utf8');
  const values: Array<[string, unknown]> = [];
  for (const [name, value] of Object.entries(request.body as Record<string, unknown>)) {
    if (value && typeof value === 'object' && '$ticket' in value) {
      values.push([
        name,
        await mintTicket((value as { $ticket: { age_ms: number } }).$ticket, token),
      ]);
    } else values.push([name, value]);
  }
  const raw = (value: unknown) =>
    value && typeof value === 'object' && '$bytes' in value
      ? Buffer.from((value as { $bytes: string }).$bytes, 'hex')
      : undefined;
  if ((request.contentType ?? '').startsWith('application/x-www-form-urlencoded')) {
    const pairs = values.map(([name, value]) => {
      const bytes = raw(value);
      const text = bytes
        ? [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')
        : encodeURIComponent(String(value));
      return `${encodeURIComponent(name)}=${text}`;
    });
    return Buffer.from(pairs.join('&'));
  }
  const spliced: Buffer[] = [];
  const markers = values.map(([name, value], index) => {
    const bytes = raw(value);
    if (bytes) spliced[index] = bytes;
    return [name, bytes ? `@@bytes-${index}@@` : value] as const;
  });
  const json = JSON.stringify(Object.fromEntries(markers));
  const parts = json.split(/@@bytes-(\d+)@@/);
  return Buffer.concat(
    parts.map((part, index) =>
      index % 2 === 1 ? (spliced[Number(part)] as Buffer) : Buffer.from(part),
    ),
  );
}

async function send(request: CaseRequest, token: string): Promise<RawAnswer> {
  const headers: Record<string, string> = {};
  if (request.contentType) headers['content-type'] = request.contentType;
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    headers[name.toLowerCase()] = placeholder(value);
  }
  return rawRequest(`${selfOrigin}/contact`, {
    method: request.method,
    headers,
    body: await encodeBody(request, token),
    chunked: request.chunked,
  });
}

function check(answer: RawAnswer, expected: Case['expect']) {
  expect(answer.status, answer.body).toBe(expected.status);
  const mediaType = String(answer.headers['content-type'] ?? '');
  if (expected.contentType) expect(mediaType.startsWith(expected.contentType)).toBe(true);
  const needsJson =
    expected.i18n_code !== undefined || expected.json !== undefined || expected.jsonHas;
  const json = needsJson ? JSON.parse(answer.body) : undefined;
  if (expected.i18n_code !== undefined) expect(json.i18n_code).toBe(expected.i18n_code);
  if (expected.field === null) expect(json).not.toHaveProperty('field');
  else if (expected.field !== undefined) expect(json.field).toBe(expected.field);
  if (expected.json) expect(json).toMatchObject(expected.json);
  for (const member of expected.jsonHas ?? []) {
    expect(typeof json[member] === 'string' && json[member] !== '').toBe(true);
  }
  for (const [name, expectation] of Object.entries(expected.headers ?? {})) {
    const value = String(answer.headers[name.toLowerCase()] ?? '');
    if (typeof expectation === 'string') expect(value).toBe(placeholder(expectation));
    else if ('contains' in expectation) expect(value).toContain(expectation.contains);
    else {
      const [low, high] = expectation.between;
      expect(value).toMatch(/^\d+$/);
      expect(Number(value)).toBeGreaterThanOrEqual(low);
      expect(Number(value)).toBeLessThanOrEqual(high);
    }
  }
}

/**
 * Runs one case through a fresh relay in front of `api` (in this process, or on `host`), with
 * `outbox` when given; fails the calling test on a mismatch.
 */
export async function runContactCase(
  testCase: Case,
  api: ContactApi,
  { host, outbox }: { host?: RelayHost; outbox?: CaseOutbox } = {},
): Promise<void> {
  if (host) {
    selfOrigin = host.origin();
    await host.serve(contactSettings(api, testCase.config));
  } else {
    selfOrigin = ownOrigin;
    listener = toNodeListener(await relayFor(api, testCase.config, outbox));
  }
  const expected = (outbox && testCase.expectWithOutbox) || testCase.expect;
  for (let n = 0; n < (testCase.repeat ?? 0); n += 1) {
    await send(testCase.repeatRequest ?? testCase.request, api.apiToken);
  }
  const mailBefore = expected.mailContains ? await mailOf(api) : [];
  check(await send(testCase.request, api.apiToken), expected);
  if (expected.mailContains) {
    const mail = (await mailOf(api)).slice(mailBefore.length);
    expect(mail, 'the one mail the case sent').toHaveLength(1);
    for (const text of expected.mailContains) expect(mail[0]?.content).toContain(text);
  }
}

function mailOf(api: ContactApi) {
  if (!api.sentMail) throw new Error('this case reads the sent mail: give the runner sentMail');
  return api.sentMail();
}
