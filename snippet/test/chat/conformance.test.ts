// The chat protocol's conformance cases (contract/conformance/chat.cases.json) against the
// relay's /chat handler, with a recording fake of the API behind it.
import { afterAll, describe, expect, it } from 'vitest';
import { paths } from '../../src/client/index.js';
import { type Case, file, runChatCase, upstreamAnswer } from './chat-conformance.ts';

/** Answers the prompt as the case says; anything else `{"status":"ok"}`. */
function fakeApi(testCase: Case) {
  return async (url: string | URL | Request) => {
    if (!String(url).endsWith(paths.prompt)) return new Response('{"status":"ok"}');
    const answer = upstreamAnswer(testCase);
    if (!answer) throw new TypeError('fetch failed');
    return answer;
  };
}

let passed = 0;
afterAll(() => {
  console.log(`chat conformance: ${passed} of ${file.cases.length} cases passed (relay)`);
});

describe('chat conformance (relay)', () => {
  it('holds enough cases to cover the protocol', () => {
    expect(file.cases.length).toBeGreaterThanOrEqual(60);
    expect(new Set(file.cases.map((testCase) => testCase.id)).size).toBe(file.cases.length);
  });

  it.each(file.cases.map((testCase) => [testCase.id, testCase] as const))(
    '%s',
    async (_id, testCase) => {
      await runChatCase(testCase, {
        apiUrl: 'https://api.example',
        apiToken: 'chat-conformance-token-4f1c',
        fetch: fakeApi(testCase) as typeof globalThis.fetch,
      });
      passed += 1;
    },
  );
});
