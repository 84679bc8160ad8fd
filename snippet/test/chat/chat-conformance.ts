// The chat protocol's conformance cases (contract/conformance/chat.cases.json) against the relay's
// /chat handler, in front of the API the caller gives: a fake answering as each case says
// (conformance.test.ts), the stub or the real service (tests/upstream). Every prompt the handler
// sends, and the API's answer to it, is recorded.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { paths } from '../../src/client/index.js';
import {
  type ChatConfig,
  createChatHandler,
  type EndpointConfig,
  escapeHtml,
} from '../../src/relay/index.js';

export interface Case {
  id: string;
  rule: string;
  request: {
    method: string;
    contentType?: string;
    headers?: Record<string, string>;
    body?: unknown;
    bodyBytes?: number;
    chunked?: boolean;
  };
  config?: Partial<ChatConfig>;
  upstream?: 'unreachable' | { status: number; headers: Record<string, string>; body: unknown };
  repeat?: number;
  repeatRequest?: Case['request'];
  expect: {
    status: number;
    i18n_code?: string;
    field?: string;
    headers?: Record<string, string>;
    contentType?: string;
    body?: Record<string, unknown>;
    bodyAbsent?: string[];
    bodyLacks?: string[];
    htmlContains?: string[];
    htmlLacks?: string[];
    prompt?: Record<string, unknown> | null;
  };
}

export const file = JSON.parse(
  readFileSync(new URL('../../../contract/conformance/chat.cases.json', import.meta.url), 'utf8'),
) as {
  endpoint: { models: string[]; settings: ChatConfig['settings']; rateLimitCount: number };
  cases: Case[];
};

const endpointUrl = 'https://relay.example/chat';
const origins: Record<string, string> = {
  $ALLOWED_ORIGIN: 'https://shop.example',
  $OTHER_ORIGIN: 'https://elsewhere.example',
  $SELF_ORIGIN: 'https://relay.example',
};
/** Replaces the file's placeholders with this endpoint's values. */
function resolve(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$(ALLOWED|OTHER|SELF)_ORIGIN/g, (name) => origins[name] as string);
  }
  if (Array.isArray(value)) return value.map(resolve);
  if (typeof value === 'object' && value !== null) {
    const repeat = (value as { $repeat?: [string, number] }).$repeat;
    if (repeat) return repeat[0].repeat(repeat[1]);
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolve(item)]));
  }
  return value;
}

function encodedBody(request: Case['request'], body: unknown): BodyInit | undefined {
  if (request.bodyBytes !== undefined) {
    const text = `{"message":"${'x'.repeat(request.bodyBytes - 14)}"}`;
    if (!request.chunked) return text;
    const bytes = new TextEncoder().encode(text);
    return new ReadableStream({
      start(controller) {
        for (let offset = 0; offset < bytes.length; offset += 16_384) {
          controller.enqueue(bytes.slice(offset, offset + 16_384));
        }
        controller.close();
      },
    });
  }
  if (body === undefined || typeof body === 'string') return body;
  if (request.contentType?.startsWith('application/x-www-form-urlencoded')) {
    return new URLSearchParams(body as Record<string, string>).toString();
  }
  return JSON.stringify(body);
}

function toRequest(request: Case['request'], body: unknown): Request {
  const headers = new Headers(resolve(request.headers ?? {}) as Record<string, string>);
  if (request.contentType) headers.set('content-type', request.contentType);
  const payload = encodedBody(request, resolve(body));
  return new Request(endpointUrl, {
    method: request.method,
    headers,
    ...(payload === undefined ? {} : { body: payload, duplex: 'half' }),
  } as RequestInit);
}

const defaultUpstream = {
  status: 200,
  headers: {},
  body: { response: ['an answer'], score: 0.5, status: 'ok' },
};

/** The fake API's answer to the case's prompt, or undefined when the case has it unreachable. */
export function upstreamAnswer(testCase: Case): Response | undefined {
  const upstream = testCase.upstream ?? defaultUpstream;
  if (upstream === 'unreachable') return undefined;
  return new Response(JSON.stringify(upstream.body), {
    status: upstream.status,
    headers: upstream.headers,
  });
}

/** The API behind the handler; `fetch` defaults to the global one. */
export interface ChatApi {
  apiUrl: string;
  apiToken: string;
  fetch?: typeof globalThis.fetch;
  /** The models the owner lists, instead of the file's (a service without the file's `mock`). */
  models?: string[];
  /** A real service: the expected answer is the one the API gave, its null score left out. */
  answerFromApi?: boolean;
  /** Serves the handler in another runtime (workerd, Deno) instead of this process. */
  host?: ChatHost;
}

/** A chat endpoint served by another runtime; the API behind it records the prompts. */
export interface ChatHost {
  /** Makes a fresh endpoint there with these settings; answers how to send it a request. */
  serve(
    endpoint: Omit<EndpointConfig, 'fetch' | 'log'>,
    chat: ChatConfig,
  ): Promise<(request: Request) => Promise<Response>>;
  /** The prompts the API received, and its answers, since the last call, which forgets them. */
  takeExchanges(): { prompts: unknown[]; answers: unknown[] };
}

interface Exchange {
  response: Response;
  text: string;
  prompts: unknown[];
  /** What the API answered each prompt (JSON), in order. */
  answers: unknown[];
}

async function run(testCase: Case, api: ChatApi): Promise<Exchange> {
  const prompts: unknown[] = [];
  const answers: unknown[] = [];
  const apiFetch = api.fetch ?? globalThis.fetch;
  const recording = async (url: string | URL | Request, init?: RequestInit) => {
    const isPrompt = String(url).endsWith(paths.prompt);
    if (isPrompt) prompts.push(JSON.parse(init?.body as string));
    const answer = await apiFetch(url, init);
    if (isPrompt)
      answers.push(
        await answer
          .clone()
          .json()
          .catch(() => undefined),
      );
    return answer;
  };
  const endpoint = {
    apiUrl: api.apiUrl,
    apiToken: api.apiToken,
    allowedOrigins: [origins.$ALLOWED_ORIGIN as string],
    publicUrl: origins.$SELF_ORIGIN as string,
  };
  const chat = {
    models: api.models ?? file.endpoint.models,
    settings: file.endpoint.settings,
    rateLimitPerMinute: file.endpoint.rateLimitCount,
    ...testCase.config,
  };
  const context = { clientIp: '203.0.113.9' };
  let send: (request: Request) => Promise<Response>;
  if (api.host) {
    send = await api.host.serve(endpoint, chat);
  } else {
    const handler = createChatHandler(
      {
        ...endpoint,
        // No case is about the API's slowness: 10 s was outlasted by a stub on a busy machine.
        apiTimeoutMs: 60_000,
        fetch: recording as typeof globalThis.fetch,
        log: () => undefined,
      },
      chat,
    );
    send = (request) => handler(request, context);
  }
  for (let sent = 0; sent < (testCase.repeat ?? 0); sent++) {
    const repeated = testCase.repeatRequest ?? testCase.request;
    await (await send(toRequest(repeated, repeated.body))).arrayBuffer();
  }
  api.host?.takeExchanges();
  prompts.length = 0;
  answers.length = 0;
  const response = await send(toRequest(testCase.request, testCase.request.body));
  const text = await response.text();
  return { response, text, ...(api.host ? api.host.takeExchanges() : { prompts, answers }) };
}

function check(testCase: Case, { response, text, prompts }: Exchange, token: string) {
  const expected = resolve(testCase.expect) as Case['expect'];
  expect(response.status).toBe(expected.status);
  const headerText = JSON.stringify([...response.headers]);
  expect(`${headerText}\n${text}`).not.toContain(token);
  if (testCase.request.method !== 'OPTIONS') {
    expect(response.headers.get('cache-control')).toBe('no-store');
  }
  for (const [name, value] of Object.entries(expected.headers ?? {})) {
    const actual = response.headers.get(name) ?? '';
    if (value === '$SECONDS') expect(actual).toMatch(/^[1-9]\d*$/);
    else if (value.startsWith('$CONTAINS:')) expect(actual).toContain(value.slice(10));
    else expect(actual).toBe(value);
  }
  if (expected.contentType) {
    expect(response.headers.get('content-type')).toContain(expected.contentType);
  }
  const isJson = response.headers.get('content-type')?.startsWith('application/json');
  const answer = isJson ? JSON.parse(text) : undefined;
  if (expected.i18n_code && isJson) {
    expect(answer).toMatchObject({ status: 'ko', i18n_code: expected.i18n_code });
    expect(typeof answer.error).toBe('string');
    expect(answer.field).toBe(expected.field);
  }
  if (expected.body) expect(answer).toMatchObject(expected.body);
  for (const key of expected.bodyAbsent ?? []) expect(answer).not.toHaveProperty(key);
  for (const piece of expected.bodyLacks ?? []) expect(text).not.toContain(piece);
  for (const piece of expected.htmlContains ?? []) expect(text).toContain(piece);
  for (const piece of expected.htmlLacks ?? []) expect(text).not.toContain(piece);
  if (expected.prompt === null) expect(prompts).toEqual([]);
  else if (expected.prompt) expect(prompts).toEqual([expected.prompt]);
}

/** Runs one case through a fresh handler in front of `api`; fails the calling test on a mismatch. */
export async function runChatCase(testCase: Case, api: ChatApi): Promise<void> {
  const exchange = await run(testCase, api);
  const expected = api.answerFromApi ? expectingApiAnswer(testCase, exchange.answers[0]) : testCase;
  check(expected, exchange, api.apiToken);
}

function expectingApiAnswer(testCase: Case, answer: unknown): Case {
  if (typeof answer !== 'object' || answer === null) return testCase;
  const { response, score } = answer as { response?: unknown; score?: unknown };
  // A page's answer is the API's first line, escaped, where the case names the fake's.
  const fakeLines: unknown[] = defaultUpstream.body.response;
  const htmlContains = testCase.expect.htmlContains?.map((piece) =>
    fakeLines.includes(piece) && Array.isArray(response) ? escapeHtml(String(response[0])) : piece,
  );
  const expected = { ...testCase.expect, ...(htmlContains ? { htmlContains } : {}) };
  const body = testCase.expect.body;
  if (!body || !('response' in body)) return { ...testCase, expect: expected };
  const { score: fakeScore, ...rest } = body;
  // Where the case expects a score, it is the API's; a null one is left out.
  const scoreShown = fakeScore !== undefined && typeof score === 'number';
  const scoreLeftOut = fakeScore !== undefined && !scoreShown;
  return {
    ...testCase,
    expect: {
      ...expected,
      body: { ...rest, response, ...(scoreShown ? { score } : {}) },
      bodyAbsent: [...(testCase.expect.bodyAbsent ?? []), ...(scoreLeftOut ? ['score'] : [])],
    },
  };
}
