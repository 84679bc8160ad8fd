// The contact protocol's conformance cases (contract/conformance/contact.cases.json) against the
// relay served over real HTTP by toNodeListener, a fresh relay per case. The API behind it is a
// fake answering as each case says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiAnswer,
  type Case,
  cases,
  closeRelayServer,
  openRelayServer,
  runContactCase,
} from './contact-conformance.ts';

let passed = 0;

beforeAll(openRelayServer);
afterAll(async () => {
  console.log(`contact conformance: ${passed} of ${cases.length} cases passed (relay)`);
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
