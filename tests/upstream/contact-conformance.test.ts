// The contact protocol's conformance cases through the relay, in front of the stub and of the real
// service. A case that needs the API to answer a given status is forced on the stub
// (`/__stub/faults`); the real service cannot be made to, so it runs there only on the stub. On the
// stub the cases run again with the relay keeping messages in a Redis outbox (Debian's
// redis-server): checked against `expectWithOutbox` where a case has one (202 queued).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CaseOutbox,
  cases,
  closeRelayServer,
  openRelayServer,
  redisOutboxForCases,
  runContactCase,
} from '../../snippet/test/relay/contact-conformance.ts';
import { redisServerBinary } from '../support/redis-server.ts';
import { describeEachService, type Service, type ServiceKind } from './services.ts';

/** Nothing listens there: the relay's call fails as when the instance is down. */
const unreachableApi = 'http://127.0.0.1:9';

beforeAll(openRelayServer);
afterAll(closeRelayServer);

describeEachService('contact conformance', (service, kind) => {
  conformance(service, kind);
  if (!kind.canForceAnswers) return;
  describe.skipIf(!redisServerBinary)('with a Redis outbox', () => {
    conformance(service, kind, redisOutboxForCases());
  });
});

function conformance(service: () => Service, kind: ServiceKind, outbox?: () => CaseOutbox): void {
  let passed = 0;
  const runnable = cases.filter((testCase) => !testCase.apiAnswers || kind.canForceAnswers);
  const mode = outbox ? ', with a Redis outbox: expectWithOutbox where a case has one' : '';
  afterAll(() => {
    const needFaults = cases.length - runnable.length;
    const note = needFaults ? `; ${needFaults} need the stub's faults` : '';
    console.log(
      `contact conformance: ${passed} of ${runnable.length} cases passed (relay on ${kind.name}${mode}${note})`,
    );
  });

  it('leaves out only the cases that force an API answer', () => {
    expect(runnable.length).toBeGreaterThan(cases.length - 20);
  });

  for (const testCase of runnable) {
    it(`${testCase.id}: ${testCase.rule}`, async () => {
      const { apiAnswers } = testCase;
      if (typeof apiAnswers === 'number') {
        // The case's own mail holds its message (its last line: the mail breaks lines).
        const body = testCase.request.body as { message?: string } | undefined;
        const marker =
          String(body?.message ?? '')
            .split('\n')
            .pop() ?? '';
        await service().forceAnswer?.('/v1/email', apiAnswers, marker);
      }
      await runContactCase(
        testCase,
        {
          apiUrl: apiAnswers === 'unreachable' ? unreachableApi : service().url,
          apiToken: service().token,
          sentMail: service().sentMail,
        },
        outbox ? { outbox: outbox() } : {},
      );
      passed += 1;
    });
  }
}
