// A real stub on a real port for each test file, with its log streams captured.
import { createClient } from 'sitebeam/client';
import { createStub } from '../src/app.js';
import { defaultOptions, type StubOptions } from '../src/options.js';

export const DEV_TOKEN = 'dev-token';
export const DEV_EMAIL = 'dev@example.test';

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
  };
}

export type TestStub = Awaited<ReturnType<typeof startTestStub>>;

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

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
