// The chat protocol's conformance cases (contract/conformance/chat.cases.json) against a chat
// endpoint on any runtime: the target makes a fresh endpoint for each case, configured as the case
// says, with a fake of the API behind it that answers as the case says and records the prompts.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChatConfig, EndpointConfig } from '../../src/relay/index.js';

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

const file = JSON.parse(
  readFileSync(new URL('../../../contract/conformance/chat.cases.json', import.meta.url), 'utf8'),
) as {
  endpoint: { models: string[]; settings: ChatConfig['settings']; rateLimitCount: number };
  cases: Case[];
};

export const token = 'chat-conformance-token-4f1c';
const endpointUrl = 'https://relay.example/chat';
const origins: Record<string, string> = {
  $ALLOWED_ORIGIN: 'https://shop.example',
  $OTHER_ORIGIN: 'https://elsewhere.example',
  $SELF_ORIGIN: 'https://relay.example',
};
const defaultUpstream = {
  status: 200,
  headers: {},
  body: { response: ['an answer'], score: 0.5, status: 'ok' },
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

/** The endpoint's settings for a case; the target adds how its API is reached. */
export function caseSettings(testCase: Case): {
  endpoint: Pick<EndpointConfig, 'apiToken' | 'allowedOrigins' | 'publicUrl'>;
  chat: ChatConfig;
} {
  return {
    endpoint: {
      apiToken: token,
      allowedOrigins: [origins.$ALLOWED_ORIGIN as string],
      publicUrl: origins.$SELF_ORIGIN as string,
    },
    chat: {
      models: file.endpoint.models,
      settings: file.endpoint.settings,
      rateLimitPerMinute: file.endpoint.rateLimitCount,
      ...testCase.config,
    },
  };
}

/** The API's answer to the case's prompt, or undefined when the case has it unreachable. */
export function upstreamAnswer(testCase: Case): Response | undefined {
  const upstream = testCase.upstream ?? defaultUpstream;
  if (upstream === 'unreachable') return undefined;
  return new Response(JSON.stringify(upstream.body), {
    status: upstream.status,
    headers: upstream.headers,
  });
}

export interface ChatEndpoint {
  send(request: Request): Promise<Response>;
  /** The prompts the API received since the last call, which forgets them. */
  takePrompts(): Promise<unknown[]>;
}

export interface ChatTarget {
  /** A fresh endpoint with the case's settings, whose API answers as `testCase.upstream` says. */
  prepare(testCase: Case): Promise<ChatEndpoint>;
}

async function run(target: ChatTarget, testCase: Case) {
  const endpoint = await target.prepare(testCase);
  for (let sent = 0; sent < (testCase.repeat ?? 0); sent++) {
    const repeated = testCase.repeatRequest ?? testCase.request;
    await (await endpoint.send(toRequest(repeated, repeated.body))).arrayBuffer();
  }
  await endpoint.takePrompts();
  const response = await endpoint.send(toRequest(testCase.request, testCase.request.body));
  const text = await response.text();
  return { response, text, prompts: await endpoint.takePrompts() };
}

function check(testCase: Case, { response, text, prompts }: Awaited<ReturnType<typeof run>>) {
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

/** Runs every case against `target`, under `label` (e.g. `relay`, `workerd`). */
export function chatConformance(label: string, target: ChatTarget): void {
  let passed = 0;
  afterAll(() => {
    console.log(`chat conformance: ${passed} of ${file.cases.length} cases passed (${label})`);
  });

  describe(`chat conformance (${label})`, () => {
    it('holds enough cases to cover the protocol', () => {
      expect(file.cases.length).toBeGreaterThanOrEqual(60);
      expect(new Set(file.cases.map((testCase) => testCase.id)).size).toBe(file.cases.length);
    });

    it.each(file.cases.map((testCase) => [testCase.id, testCase] as const))(
      '%s',
      async (_id, testCase) => {
        check(testCase, await run(target, testCase));
        passed += 1;
      },
    );
  });
}
