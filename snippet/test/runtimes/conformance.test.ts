// The contact and chat protocols' conformance cases over real HTTP against the relay in workerd
// (through Miniflare) and in Deno 2 (`deno serve`), with the runners the Node relay uses: each case
// makes a fresh relay in the runtime (harness.mjs), whose API is a fake on this machine answering
// as the case says (and recording the chat's prompts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../src/client/index.js';
import { CHAT_PATH } from '../../src/relay/index.js';
import {
  type Case as ChatCase,
  type ChatHost,
  file as chatFile,
  runChatCase,
  upstreamAnswer,
} from '../chat/chat-conformance.ts';
import {
  apiAnswer,
  cases,
  contactSettings,
  type RelayHost,
  runContactCase,
} from '../relay/contact-conformance.ts';
import { rawPost, rawRequest } from '../relay/raw-post.ts';
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

/** The harness served by `start` for the whole file, given each case's relay. */
function runtimeHarness(start: () => Promise<RunningRuntime>) {
  let runtime: RunningRuntime | undefined;
  beforeAll(async () => {
    runtime = await start();
  }, 60_000);
  afterAll(() => runtime?.stop());
  const url = () => (runtime as RunningRuntime).url;
  const serve = async (kind: 'contact' | 'chat', settings: object, chat?: object) => {
    received.length = 0;
    const response = await fetch(`${url()}/__case`, {
      method: 'POST',
      body: JSON.stringify({ kind, settings, chat }),
    });
    if (response.status !== 204) throw new Error(`__case answered ${response.status}`);
  };
  const contact: RelayHost = { origin: url, serve: (settings) => serve('contact', settings) };
  const chat: ChatHost = {
    async serve(endpoint, config) {
      await serve('chat', endpoint, config);
      return async (request) => {
        const copy = request.clone();
        try {
          return await fetch(`${url()}${CHAT_PATH}`, {
            method: request.method,
            headers: request.headers,
            body: request.body,
            duplex: 'half',
          } as RequestInit);
        } catch (error) {
          // The runtime may answer a streamed body over the limit (413) and close while it is still
          // being sent: fetch then loses the answer, which node:http still reads.
          if (!connectionClosedWhileSending(error)) throw error;
          const answer = await rawRequest(`${url()}${CHAT_PATH}`, {
            method: request.method,
            headers: Object.fromEntries(copy.headers),
            body: Buffer.from(await copy.arrayBuffer()),
            chunked: true,
          });
          const headers = new Headers();
          for (const [name, value] of Object.entries(answer.headers)) {
            for (const item of [value ?? []].flat()) headers.append(name, item);
          }
          return new Response(answer.body, { status: answer.status, headers });
        }
      };
    },
    takeExchanges() {
      const prompts = received
        .splice(0)
        .filter(({ path }) => path.endsWith(paths.prompt))
        .map(({ body }) => JSON.parse(body));
      return { prompts, answers: [] };
    },
  };
  return { url, contact, chat };
}

function connectionClosedWhileSending(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } }).cause?.code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}

// A Host header no URL can be made of never reaches the Worker or the Deno handler: the runtime
// answers 500 itself (Cloudflare's edge refuses such a Host before workerd; a Deno relay needs a
// reverse proxy in front to answer it 400). Checked as the runtime's answer, reported NOT MET.
const MALFORMED_HOST_CASES = new Set(['host-space', 'host-bracket']);

function conformance(label: string, runtime: ReturnType<typeof runtimeHarness>, why: string) {
  let contactPassed = 0;
  let chatPassed = 0;
  afterAll(() => {
    console.log(
      `contact conformance: ${contactPassed} of ${cases.length} cases passed (${label}); not met, answered 500 by ${label} itself: ${[...MALFORMED_HOST_CASES].join(', ')}`,
    );
    console.log(
      `chat conformance: ${chatPassed} of ${chatFile.cases.length} cases passed (${label})`,
    );
  });

  describe(`contact conformance (${label})`, () => {
    for (const testCase of cases) {
      if (MALFORMED_HOST_CASES.has(testCase.id)) {
        it(`${testCase.id}: ${testCase.rule}: NOT MET, ${label} answers 500 itself (${why})`, async () => {
          await runtime.contact.serve(contactSettings({ apiUrl, apiToken: TOKEN }));
          const port = Number(new URL(runtime.url()).port);
          const host = testCase.request.headers?.Host as string;
          const answer = await rawPost(port, { host, body: Buffer.from('{}') });
          expect(answer.status).toBe(500);
          expect(answer.body).not.toContain('i18n_code');
        });
        continue;
      }
      it(`${testCase.id}: ${testCase.rule}`, async () => {
        answer = () =>
          testCase.apiAnswers === 'unreachable' ? undefined : apiAnswer(testCase.apiAnswers);
        const sentMail = async () =>
          received
            .filter(({ path }) => path.endsWith(paths.email))
            .map(({ body }) => JSON.parse(body));
        await runContactCase(
          testCase,
          { apiUrl, apiToken: TOKEN, sentMail },
          { host: runtime.contact },
        );
        contactPassed += 1;
      });
    }
  });

  describe(`chat conformance (${label})`, () => {
    for (const testCase of chatFile.cases as ChatCase[]) {
      it(testCase.id, async () => {
        const upstream = upstreamAnswer(testCase);
        answer = () => upstream?.clone();
        await runChatCase(testCase, { apiUrl, apiToken: TOKEN, host: runtime.chat });
        chatPassed += 1;
      });
    }
  });
}

const TOKEN = 'runtime-conformance-token';

describe.skipIf(workerdUnavailable)('workerd', () => {
  conformance(
    'workerd',
    runtimeHarness(() => startWorkerd(harness, [{ name: 'harness' }])),
    'it cannot make the request URL: TypeError Invalid URL string',
  );
});

describe.skipIf(denoUnavailable)('Deno 2', () => {
  conformance(
    'deno',
    runtimeHarness(() => startDenoServe(harness)),
    'it cannot make the request URL and answers Internal Server Error',
  );
});
