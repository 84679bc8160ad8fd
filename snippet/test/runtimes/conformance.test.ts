// The contact protocol's conformance cases over real HTTP against the relay in workerd (through
// Miniflare) and in Deno 2 (`deno serve`), with the runner the Node relay uses: each case makes a
// fresh relay in the runtime (harness.mjs), whose API is a fake on this machine answering as the
// case says.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe } from 'vitest';
import {
  apiAnswer,
  type Case,
  type ContactTarget,
  contactConformance,
  contactSettings,
} from '../relay/contact-conformance.ts';
import {
  denoUnavailable,
  type RunningRuntime,
  startDenoServe,
  startWorkerd,
  workerdUnavailable,
} from './runtimes.ts';

const harness = fileURLToPath(new URL('./harness.mjs', import.meta.url));

let answers: Case['apiAnswers'];
const fakeApi: Server = createServer(async (_incoming, outgoing) => {
  const answer = apiAnswer(answers === 'unreachable' ? undefined : answers);
  outgoing.writeHead(answer.status, Object.fromEntries(answer.headers));
  outgoing.end(await answer.text());
});
const address = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
let apiUrl = '';
let closedUrl = '';

beforeAll(async () => {
  const closed = createServer();
  await Promise.all(
    [fakeApi, closed].map(
      (server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    ),
  );
  apiUrl = address(fakeApi);
  closedUrl = address(closed);
  await new Promise((resolve) => closed.close(resolve));
});
afterAll(async () => {
  fakeApi.closeAllConnections();
  await new Promise((resolve) => fakeApi.close(resolve));
});

/** The runner's target: the harness served by `start`, told each case's settings. */
function runtimeTarget(
  start: () => Promise<RunningRuntime>,
  runtimeAnswers?: ContactTarget['runtimeAnswers'],
): ContactTarget {
  let runtime: RunningRuntime | undefined;
  beforeAll(async () => {
    runtime = await start();
  }, 60_000);
  afterAll(() => runtime?.stop());
  const url = () => (runtime as RunningRuntime).url;
  return {
    origin: url,
    runtimeAnswers,
    async prepare(apiAnswers) {
      answers = apiAnswers;
      const settings = {
        ...contactSettings,
        apiUrl: apiAnswers === 'unreachable' ? closedUrl : apiUrl,
      };
      const response = await fetch(`${url()}/__case`, {
        method: 'POST',
        body: JSON.stringify({ kind: 'contact', settings }),
      });
      if (response.status !== 204) throw new Error(`__case answered ${response.status}`);
    },
  };
}

// A Host header no URL can be built from never reaches the Worker or the Deno handler: the runtime
// answers 500 itself. Cloudflare's edge refuses such a Host before workerd; a Deno relay needs a
// reverse proxy in front (as the README says) to answer it 400.
const malformedHost = (why: string) => ({
  'host-space': { status: 500, why },
  'host-bracket': { status: 500, why },
});

describe.skipIf(workerdUnavailable)('workerd', () => {
  contactConformance(
    'workerd',
    runtimeTarget(
      () => startWorkerd(harness, [{ name: 'harness' }]),
      malformedHost('workerd cannot make the request URL: TypeError Invalid URL string'),
    ),
  );
});

describe.skipIf(denoUnavailable)('Deno 2', () => {
  contactConformance(
    'deno',
    runtimeTarget(
      () => startDenoServe(harness),
      malformedHost('Deno cannot make the request URL and answers Internal Server Error'),
    ),
  );
});
