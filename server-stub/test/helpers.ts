// A real stub on a real port for each test file, with its log streams captured.
import { request as httpRequest } from 'node:http';
import { createClient } from 'sitebeam/client';
import { afterAll, beforeAll } from 'vitest';
import { createStub } from '../src/app.js';
import { defaultOptions, type StubOptions } from '../src/options.js';

export const DEV_TOKEN = 'dev-token';
export const DEV_EMAIL = 'dev@example.com';

export async function startTestStub(overrides: Partial<StubOptions> = {}) {
  const visitLines: string[] = [];
  const logLines: string[] = [];
  const stub = await createStub(
    { ...defaultOptions, port: 0, quiet: true, ...overrides },
    { visitLines: (line) => visitLines.push(line), log: (line) => logLines.push(line) },
  );
  await stub.app.listen({ host: '127.0.0.1', port: 0 });
  const address = stub.app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    stub,
    visitLines,
    logLines,
    client: createClient({ baseUrl: url, token: DEV_TOKEN }),
    close: () => stub.close(),
    /** A raw request, for what the typed client would never send. */
    request: (path: string, init: RequestInit = {}) => fetch(url + path, init),
    postJson: (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-auth-token': DEV_TOKEN, ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    /** A request carrying this `Host` header (fetch cannot set it), as a DNS-rebound page would. */
    requestAs: (host: string, path: string, init: HostRequestInit = {}) =>
      requestWithHost(url, host, path, init),
  };
}

export interface HostRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** A request to `baseUrl` carrying this `Host` header (fetch cannot set it). */
export function requestWithHost(
  baseUrl: string,
  host: string,
  path: string,
  init: HostRequestInit = {},
) {
  const { hostname, port } = new URL(baseUrl);
  return new Promise<Response>((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: hostname,
        port,
        path,
        method: init.method ?? 'GET',
        headers: { ...init.headers, host },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(incoming.headers)) {
            if (value !== undefined)
              headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          const status = incoming.statusCode ?? 0;
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, headers }));
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });
}

export type TestStub = Awaited<ReturnType<typeof startTestStub>>;

/** The stub of a test file: started before its first test, closed after its last. */
export function useTestStub(overrides: Partial<StubOptions> = {}): TestStub {
  const stub = {} as TestStub;
  beforeAll(async () => {
    Object.assign(stub, await startTestStub(overrides));
  });
  afterAll(() => stub.close());
  return stub;
}

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Asserts the service's 422 validation answer; returns its problems as `field: reason`. */
export async function expectValidationFailure(response: Response): Promise<string> {
  const body = (await response.json()) as { detail?: Array<{ loc: unknown[]; msg: string }> };
  if (response.status !== 422 || !Array.isArray(body.detail) || body.detail.length === 0) {
    throw new Error(
      `expected 422 with a detail list, got ${response.status} ${JSON.stringify(body)}`,
    );
  }
  return body.detail
    .map(({ loc, msg }) => `${loc.slice(1).join('.') || String(loc[0])}: ${msg}`)
    .join('; ');
}

/** Asserts the contract's error shape and returns the body. */
export async function expectContractError(response: Response, status: number, code: string) {
  const body = (await response.json()) as Record<string, unknown>;
  const summary = JSON.stringify(body);
  if (response.status !== status || body.i18n_code !== code) {
    throw new Error(`expected ${status} ${code}, got ${response.status} ${summary}`);
  }
  if (body.status !== 'ko' || typeof body.error !== 'string' || !UUID_V4.test(String(body.cid))) {
    throw new Error(`not the contract's error shape: ${summary}`);
  }
  if (!response.headers.get('content-type')?.startsWith('application/json')) {
    throw new Error(`error answered as ${response.headers.get('content-type')}`);
  }
  return body as { status: 'ko'; error: string; i18n_code: string; cid: string };
}
