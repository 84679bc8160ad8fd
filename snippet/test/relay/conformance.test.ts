// The contact protocol's conformance cases against the relay served over real HTTP by
// toNodeListener, a fresh relay per case, its API a fake answering as each case says.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { createRelayHandler, toNodeListener } from '../../src/relay/index.js';
import {
  apiAnswer,
  type Case,
  contactConformance,
  contactSettings,
} from './contact-conformance.ts';

let listener: ReturnType<typeof toNodeListener>;
const server = createServer((incoming, outgoing) => listener(incoming, outgoing));
let origin = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function relayFor(apiAnswers: Case['apiAnswers']) {
  const fakeApi = async () => {
    if (apiAnswers === 'unreachable') throw new TypeError('fetch failed');
    return apiAnswer(apiAnswers);
  };
  return createRelayHandler({
    ...contactSettings,
    apiUrl: 'https://api.example',
    fetch: fakeApi as typeof fetch,
    log: () => {},
  });
}

contactConformance('relay', {
  origin: () => origin,
  prepare: async (apiAnswers) => {
    listener = toNodeListener(relayFor(apiAnswers));
  },
});
