// Starts the real server stub as a child process on a free port, for end-to-end suites.
import { fileURLToPath } from 'node:url';
import { type ListeningProcess, startListeningProcess } from './listening-process.ts';

const stubCli = fileURLToPath(new URL('../../server-stub/dist/cli.js', import.meta.url));

/** stdout carries the visit lines, stderr the messages; `output()` has both. */
export type RunningStub = ListeningProcess;

export function startStub(flags: string[] = []): Promise<RunningStub> {
  return startListeningProcess(stubCli, ['--port', '0', ...flags], { name: 'stub' });
}

/** Calls the stub's own surface (`/__stub/…`) and answers its JSON; any non-2xx answer throws. */
export async function callStub<T = Record<string, unknown>>(
  stub: RunningStub,
  path: string,
  method = 'GET',
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${stub.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (response.status === 204 ? {} : await response.json()) as T;
}

/** What only a test's own request carries: text in its JSON body, or a header only it sends. */
export type FaultMatch = { body_contains: string } | { headers: Record<string, string> };

/** A rule of the stub's `/__stub/faults`, without what it matches on. */
export interface Fault {
  method: 'GET' | 'POST';
  path_prefix: string;
  status?: number;
  times?: number;
  delay_ms?: number;
  retry_after?: number;
  i18n_code?: string;
}

/** Sets a fault only the request carrying `match` can take: no other test's request sees it. */
export function injectFault(stub: RunningStub, match: FaultMatch, fault: Fault): Promise<unknown> {
  return callStub(stub, '/__stub/faults', 'PUT', { faults: [{ ...fault, ...match }] });
}

/**
 * The faults still set (a test's own request should have taken its fault), then clears them: a
 * test asserts this is empty after each test, so the next one starts clean.
 */
export async function faultsLeft(stub: RunningStub): Promise<unknown[]> {
  const { faults } = await callStub<{ faults: unknown[] }>(stub, '/__stub/faults');
  await callStub(stub, '/__stub/faults', 'DELETE');
  return faults;
}
