// The chat protocol's conformance cases against the relay's /chat handler in this process, with a
// recording fake of the API behind it.
import { paths } from '../../src/client/index.js';
import { createChatHandler } from '../../src/relay/index.js';
import { caseSettings, chatConformance, upstreamAnswer } from './chat-conformance.ts';

chatConformance('relay', {
  async prepare(testCase) {
    const prompts: unknown[] = [];
    const fetch = async (url: string | URL | Request, init?: RequestInit) => {
      if (!String(url).endsWith(paths.prompt)) return new Response('{"status":"ok"}');
      prompts.push(JSON.parse(init?.body as string));
      const answer = upstreamAnswer(testCase);
      if (!answer) throw new TypeError('fetch failed');
      return answer;
    };
    const { endpoint, chat } = caseSettings(testCase);
    const handler = createChatHandler(
      {
        ...endpoint,
        apiUrl: 'https://api.example',
        fetch: fetch as typeof globalThis.fetch,
        log: () => undefined,
      },
      chat,
    );
    return {
      send: (request) => handler(request, { clientIp: '203.0.113.9' }),
      takePrompts: async () => prompts.splice(0),
    };
  },
});
