// The chat protocol's conformance cases through the relay's /chat handler, in front of the stub and
// of the real service; the expected answer is the one the service gave. The file's default model
// `mock` is the stub's own: every service here runs `log` in its place. Left out, and counted in
// the printed line: on the real service, cases forcing the API's answer (the stub forces the
// error statuses through /__stub/faults) or choosing a second model (only `log` runs without
// machine-learning packages); on 3.16.15, every case that reaches the AI API, which that release
// does not implement (tests/upstream/relay.test.ts asserts what the relay says there).
import { afterAll, expect, it } from 'vitest';
import { type Case, file, runChatCase } from '../../snippet/test/chat/chat-conformance.ts';
import { describeEachService, type ServiceKind } from './services.ts';

const fileModel = 'mock';
/** Nothing listens there: the relay's call fails as when the instance is down. */
const unreachableApi = 'http://127.0.0.1:9';

function withModel(value: unknown, model: string): unknown {
  if (value === fileModel) return model;
  if (Array.isArray(value)) return value.map((item) => withModel(item, model));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, withModel(item, model)]),
    );
  }
  return value;
}

const reachesApi = (testCase: Case) => Boolean(testCase.expect.prompt || testCase.upstream);
const forcedFailure = (testCase: Case) =>
  testCase.upstream === 'unreachable' || (testCase.upstream?.status ?? 0) >= 400;
const promptModel = (testCase: Case) =>
  (testCase.expect.prompt as { model?: string } | undefined)?.model;

/** Why a case cannot run on this service, or undefined when it runs. */
function leftOut(testCase: Case, kind: ServiceKind): string | undefined {
  if (testCase.upstream && !(kind.canForceAnswers && forcedFailure(testCase)))
    return "force the API's answer";
  if (!reachesApi(testCase)) return undefined;
  if (!kind.ai) return 'reach the AI API, not implemented in this release';
  if (!kind.canForceAnswers && promptModel(testCase) !== fileModel) return 'need a second model';
  return undefined;
}

describeEachService('chat conformance', (service, kind) => {
  const runnable = file.cases.filter((testCase) => !leftOut(testCase, kind));
  let passed = 0;
  afterAll(() => {
    const reasons = new Map<string, number>();
    for (const testCase of file.cases) {
      const reason = leftOut(testCase, kind);
      if (reason) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    const notes = [...reasons].map(([reason, count]) => `; ${count} ${reason}`).join('');
    console.log(
      `chat conformance: ${passed} of ${runnable.length} cases passed (relay on ${kind.name}${notes})`,
    );
  });

  it('runs most of the cases', () => {
    expect(runnable.length).toBeGreaterThan(file.cases.length / 2);
  });

  for (const original of runnable) {
    it(original.id, async () => {
      const testCase = withModel(original, service().model) as Case;
      const { upstream } = testCase;
      if (upstream && upstream !== 'unreachable') {
        const code = (upstream.body as { i18n_code?: string }).i18n_code;
        // The case's own prompt carries its message.
        const { message } = testCase.request.body as { message: string };
        const marker = JSON.stringify({ message }).slice(1, -1);
        await service().forceAnswer?.('/v1/ai/prompt', upstream.status, marker, code);
        // The stub says its own Retry-After.
        for (const name of Object.keys(testCase.expect.headers ?? {})) {
          if (name.toLowerCase() === 'retry-after')
            testCase.expect.headers = { [name]: '$SECONDS' };
        }
      }
      await runChatCase(testCase, {
        apiUrl: upstream === 'unreachable' ? unreachableApi : service().url,
        apiToken: service().token,
        models: file.endpoint.models.map((model) => withModel(model, service().model) as string),
        answerFromApi: true,
      });
      passed += 1;
    });
  }
});
