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
