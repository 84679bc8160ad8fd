import type { EmailMessage, TrackerRecord } from 'sitebeam/client';
import type { FaultInjector } from './faults.js';
import type { ModelRegistry } from './models/registry.js';
import type { StubOptions } from './options.js';
import type { Account, AccountStore } from './store/accounts.js';
import type { CapturedLog } from './store/captured.js';
import type { VisitRecorder } from './tracker/visit-recorder.js';

export interface CapturedEmail {
  id: string;
  received_at: string;
  account: string;
  message: EmailMessage;
}

/** Everything the routes share; built once by `createStub`. */
export interface StubContext {
  options: StubOptions;
  accounts: AccountStore;
  emails: CapturedLog<CapturedEmail>;
  visits: CapturedLog<TrackerRecord>;
  faults: FaultInjector;
  models: ModelRegistry;
  recorder: VisitRecorder;
  writeLog: (entry: Record<string, unknown>) => void;
  /** The account the demo's contact relay sends as (the first one the stub started with). */
  demoAccount: { email: string; token: string };
}

declare module 'fastify' {
  interface FastifyRequest {
    account?: Account;
  }
  interface FastifySchema {
    /** Left out of the OpenAPI document (the stub's own and helper routes). */
    hide?: boolean;
    summary?: string;
  }
}
