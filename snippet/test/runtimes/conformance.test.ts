// The contact and chat protocols' conformance cases over real HTTP against the relay in workerd
// (through Miniflare) and in Deno 2 (`deno serve`), with the runners the Node relay uses: each case
// makes a fresh relay in the runtime (harness.mjs), whose API is a fake on this machine answering
// as the case says (and recording the chat's prompts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe } from 'vitest';
import { paths } from '../../src/client/index.js';
import { CHAT_PATH } from '../../src/relay/index.js';
import {
  type ChatTarget,
  caseSettings,
  chatConformance,
  upstreamAnswer,
} from '../chat/chat-conformance.ts';
import {
  apiAnswer,
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

/** How the fake API answers the current case (undefined: it drops the connection); it records what it is sent. */
let answer: () => Response | undefined = () => apiAnswer(undefined);
const received: Array<{ path: string; body: string }> = [];
const fakeApi: Server = createServer(async (incoming, outgoing) => {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  received.push({ path: incoming.url ?? '', body: Buffer.concat(chunks).toString() });
  const response = answer();
  if (!response) {
    incoming.socket.destroy();
    return;
  }
  // A fresh connection per call: Deno's fetch sends a request again when a connection it reused
  // is dropped, which would make the "unreachable" API receive the prompt twice.
  outgoing.writeHead(response.status, {
    ...Object.fromEntries(response.headers),
    connection: 'close',
  });
  outgoing.end(await response.text());
});
const address = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
let apiUrl = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => fakeApi.listen(0, '127.0.0.1', resolve));
  apiUrl = address(fakeApi);
});
afterAll(async () => {
  fakeApi.closeAllConnections();
  await new Promise((resolve) => fakeApi.close(resolve));
});

/** The harness served by `start` for the whole file; `prepare` gives it a case's relay. */
function runtimeHarness(start: () => Promise<RunningRuntime>) {
  let runtime: RunningRuntime | undefined;
  beforeAll(async () => {
    runtime = await start();
  }, 60_000);
  afterAll(() => runtime?.stop());
  const url = () => (runtime as RunningRuntime).url;
  const prepare = async (kind: 'contact' | 'chat', settings: object, chat?: object) => {
    received.length = 0;
    const response = await fetch(`${url()}/__case`, {
      method: 'POST',
      body: JSON.stringify({ kind, settings, chat }),
    });
    if (response.status !== 204) throw new Error(`__case answered ${response.status}`);
  };
  return { url, prepare };
}

function contactTarget(
  runtime: ReturnType<typeof runtimeHarness>,
  runtimeAnswers?: ContactTarget['runtimeAnswers'],
): ContactTarget {
  return {
    origin: runtime.url,
    runtimeAnswers,
    async prepare(apiAnswers) {
      answer = () => (apiAnswers === 'unreachable' ? undefined : apiAnswer(apiAnswers));
      await runtime.prepare('contact', { ...contactSettings, apiUrl });
    },
  };
}

function chatTarget(runtime: ReturnType<typeof runtimeHarness>): ChatTarget {
  return {
    async prepare(testCase) {
      const upstream = upstreamAnswer(testCase);
      answer = () => upstream?.clone();
      const { endpoint, chat } = caseSettings(testCase);
      await runtime.prepare('chat', { ...endpoint, apiUrl }, chat);
      return {
        send: (request) =>
          fetch(`${runtime.url()}${CHAT_PATH}`, {
            method: request.method,
            headers: request.headers,
            body: request.body,
            duplex: 'half',
          } as RequestInit),
        takePrompts: async () =>
          received
            .splice(0)
            .filter(({ path }) => path.endsWith(paths.prompt))
            .map(({ body }) => JSON.parse(body)),
      };
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
  const runtime = runtimeHarness(() => startWorkerd(harness, [{ name: 'harness' }]));
  contactConformance(
    'workerd',
    contactTarget(
      runtime,
      malformedHost('workerd cannot make the request URL: TypeError Invalid URL string'),
    ),
  );
  chatConformance('workerd', chatTarget(runtime));
});

describe.skipIf(denoUnavailable)('Deno 2', () => {
  const runtime = runtimeHarness(() => startDenoServe(harness));
  contactConformance(
    'deno',
    contactTarget(
      runtime,
      malformedHost('Deno cannot make the request URL and answers Internal Server Error'),
    ),
  );
  chatConformance('deno', chatTarget(runtime));
});
