// The contact protocol's conformance cases (contract/conformance/contact.cases.json) against the
// relay served over real HTTP by toNodeListener, a fresh relay per case. The API behind it is a
// fake answering as each case says. Twice: without an outbox (`expect`), and with a Redis outbox
// on Debian's redis-server (`expectWithOutbox` where a case has one: 202 queued).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisServerBinary } from '../../../tests/support/redis-server.ts';
import {
  apiAnswer,
  type Case,
  cases,
  closeRelayServer,
  openRelayServer,
  redisOutboxForCases,
  runContactCase,
} from './contact-conformance.ts';

let passed = 0;
let passedWithOutbox = 0;

beforeAll(openRelayServer);
afterAll(async () => {
  console.log(`contact conformance: ${passed} of ${cases.length} cases passed (relay)`);
  if (redisServerBinary) {
    console.log(
      `contact conformance: ${passedWithOutbox} of ${cases.length} cases passed (relay with a Redis outbox, checking expectWithOutbox where a case has one)`,
    );
  } else
    console.warn('contact conformance with a Redis outbox: SKIPPED, redis-server is not installed');
  await closeRelayServer();
});

/** Every mail the fake API was asked to send, as it received them. */
const sentMail: Array<{ content?: string }> = [];

function fakeApi(apiAnswers: Case['apiAnswers']) {
  return async (_url: string | URL | Request, init?: RequestInit) => {
    if (apiAnswers === 'unreachable') throw new TypeError('fetch failed');
    sentMail.push(JSON.parse(String(init?.body)));
    return apiAnswer(apiAnswers);
  };
}

describe('contact conformance (relay)', () => {
  it('has at least 60 cases with unique ids', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  });

  for (const testCase of cases) {
    it(`${testCase.id}: ${testCase.rule}`, async () => {
      await runContactCase(testCase, {
        apiUrl: 'https://api.example',
        apiToken: 'conformance-token',
        fetch: fakeApi(testCase.apiAnswers) as typeof fetch,
        sentMail: async () => [...sentMail],
      });
      passed += 1;
    });
  }
});

describe.skipIf(!redisServerBinary)('contact conformance (relay with a Redis outbox)', () => {
  const outbox = redisOutboxForCases();

  it('has cases whose answer an outbox changes', () => {
    expect(cases.filter((c) => c.expectWithOutbox).length).toBeGreaterThanOrEqual(3);
  });

  for (const testCase of cases) {
    it(`${testCase.id}: ${testCase.rule}`, async () => {
      await runContactCase(
        testCase,
        {
          apiUrl: 'https://api.example',
          apiToken: 'conformance-token',
          fetch: fakeApi(testCase.apiAnswers) as typeof fetch,
          sentMail: async () => [...sentMail],
        },
        { outbox: outbox() },
      );
      passedWithOutbox += 1;
    });
  }
});
