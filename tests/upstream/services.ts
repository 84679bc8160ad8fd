// The services every test of this layer runs against: our stub, and the real service (upstream
// cwcloud-api) at today's CE release and at the last release with the AI routes. One describe block
// per service, the service started once for it; upstream says SKIPPED with the reason when its
// release archives are not on this machine.
import { afterAll, beforeAll, describe } from 'vitest';
import { callStub, type RunningStub, startStub } from '../support/stub-server.ts';
import {
  type RunningUpstream,
  startUpstream,
  type UpstreamRelease,
  upstreamReleases,
  upstreamUnavailable,
} from '../support/upstream-server.ts';

export interface SentMail {
  to: string;
  subject: string;
  from?: string;
  replyto?: string;
  content?: string;
}

export interface Service {
  /** `stub`, `upstream 3.16.15`, `upstream 3.15.24` */
  name: string;
  url: string;
  token: string;
  /** A model that answers prompts on this service without machine-learning packages. */
  model: string;
  /** A confirmed account without the AI API (only where the service has such accounts). */
  tokenWithoutAi?: string;
  sentMail: () => Promise<SentMail[]>;
  /**
   * The stub only: the next call to `path` holding `marker` in its JSON body (text of the case's
   * own request) answers `status` (its `/__stub/faults`).
   */
  forceAnswer?: (path: string, status: number, marker: string, i18nCode?: string) => Promise<void>;
}

/** What is known of a service before it starts: which tests apply to it. */
export interface ServiceKind {
  name: string;
  /** Whether the AI routes answer (false: today's CE, every AI route 405 `cwai_not_implemened`). */
  ai: boolean;
  /** Whether a test can force the API's answer (the stub's `/__stub/faults`). */
  canForceAnswers: boolean;
  /** Whether the service has `tokenWithoutAi`, a confirmed account without the AI API. */
  hasAccountWithoutAi: boolean;
  unavailable: () => string | undefined;
  start: () => Promise<{ service: Service; stop: () => Promise<void> }>;
}

function stubKind(): ServiceKind {
  return {
    name: 'stub',
    ai: true,
    canForceAnswers: true,
    hasAccountWithoutAi: false,
    unavailable: () => undefined,
    start: async () => {
      const stub: RunningStub = await startStub(['--quiet', '--no-demo']);
      const service: Service = {
        name: 'stub',
        url: stub.url,
        token: 'dev-token',
        model: 'log',
        sentMail: async () =>
          (
            await callStub<{ emails: Array<{ message: SentMail }> }>(stub, '/__stub/emails')
          ).emails.map((email) => email.message),
        forceAnswer: async (path, status, marker, i18nCode) => {
          const code = i18nCode ? { i18n_code: i18nCode } : {};
          await callStub(stub, '/__stub/faults', 'PUT', {
            faults: [{ path_prefix: path, status, times: 1, body_contains: marker, ...code }],
          });
        },
      };
      return { service, stop: () => stub.stop() };
    },
  };
}

function upstreamKind(release: UpstreamRelease): ServiceKind {
  return {
    name: `upstream ${release}`,
    ai: release !== '3.16.15',
    canForceAnswers: false,
    hasAccountWithoutAi: true,
    unavailable: () => upstreamUnavailable(release),
    start: async () => {
      const upstream: RunningUpstream = await startUpstream({ release });
      const service: Service = {
        name: `upstream ${release}`,
        url: upstream.url,
        token: upstream.token,
        tokenWithoutAi: upstream.tokenWithoutAi,
        model: 'log',
        sentMail: upstream.sentMail,
      };
      return { service, stop: () => upstream.stop() };
    },
  };
}

export const serviceKinds: ServiceKind[] = [stubKind(), ...upstreamReleases.map(upstreamKind)];

/**
 * `describe` once per service; `body` gets a getter for the running service (valid inside tests
 * and hooks) and what is known of it beforehand, to declare only the tests that apply. A service that cannot run here is a skipped block whose title says why.
 */
export function describeEachService(
  title: string,
  body: (service: () => Service, kind: ServiceKind) => void,
): void {
  for (const kind of serviceKinds) {
    const reason = kind.unavailable();
    if (reason) {
      describe.skip(`${title} on ${kind.name}: SKIPPED, ${reason}`, () => {
        body(() => {
          throw new Error(reason);
        }, kind);
      });
      continue;
    }
    describe(`${title} on ${kind.name}`, () => {
      let running: Awaited<ReturnType<ServiceKind['start']>> | undefined;
      beforeAll(async () => {
        running = await kind.start();
      }, 90_000);
      afterAll(async () => {
        await running?.stop();
      });
      body(() => {
        if (!running) throw new Error(`${kind.name} did not start`);
        return running.service;
      }, kind);
    });
  }
}
