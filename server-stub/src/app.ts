// Builds the stub: one Fastify app, its shared context, and the contract's error handling.
import { readFileSync } from 'node:fs';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { errorCodes, isEmailAddress, type TrackerRecord } from 'sitebeam/client';
import type { CapturedEmail, StubContext } from './context.js';
import { controlFromLoopbackOnly } from './control-access.js';
import {
  ContractError,
  contractErrorFor,
  sendError,
  sendValidationFailure,
  validationIssuesFor,
} from './errors.js';
import { FaultInjector } from './faults.js';
import { requireServedHost } from './host-check.js';
import { ModelRegistry } from './models/registry.js';
import { collectOpenApi } from './openapi.js';
import type { StubOptions } from './options.js';
import { aiRoutes } from './routes/ai.js';
import { contactRelayRoute } from './routes/contact-relay.js';
import { demoRoutes } from './routes/demo.js';
import { emailRoutes } from './routes/email.js';
import { stubAdminRoutes } from './routes/stub-admin.js';
import { isTrackerUrl, trackerHeaders, trackerRoutes } from './routes/tracker.js';
import { AccountStore, defaultAccount } from './store/accounts.js';
import { CapturedLog } from './store/captured.js';
import { GeoLocator } from './tracker/geo.js';
import { VisitRecorder } from './tracker/visit-recorder.js';

const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as {
  version: string;
};

export interface Stub {
  app: FastifyInstance;
  context: StubContext;
  /** Resolves when the IP databases are fully loaded (the first visits wait for them anyway). */
  warmedUp: Promise<unknown>;
  close: () => Promise<void>;
}

export interface StubStreams {
  /** Where each visit record goes as one JSON line (stdout by default). */
  visitLines: (line: string) => void;
  /** The server log (stderr by default). */
  log: (line: string) => void;
}

export async function createStub(options: StubOptions, streams: StubStreams): Promise<Stub> {
  const writeLog = (entry: Record<string, unknown>) =>
    streams.log(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);

  const initialAccounts = options.accountsFile
    ? AccountStore.readAccountsFile(options.accountsFile)
    : [defaultAccount];
  const geo = await GeoLocator.open();
  const historyLimits = { items: options.historySize, bytes: options.historyBytes };
  const visits = new CapturedLog<TrackerRecord>('visits', historyLimits, options.dataDir);
  const context: StubContext = {
    options,
    accounts: new AccountStore(initialAccounts, options.dataDir),
    emails: new CapturedLog<CapturedEmail>('emails', historyLimits, options.dataDir),
    visits,
    faults: new FaultInjector(),
    models: new ModelRegistry(options.models, options.loadDelayMs, writeLog),
    recorder: new VisitRecorder(geo, visits, streams.visitLines, options.trustProxy),
    writeLog,
    demoAccount: initialAccounts[0] ?? defaultAccount,
  };

  const app = Fastify({
    logger: false,
    bodyLimit: 16 * 1024 * 1024,
    routerOptions: { maxParamLength: 4096 },
    exposeHeadRoutes: false,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    forceCloseConnections: true,
    requestTimeout: 30_000,
    // A path that is not valid percent-encoding never reaches a route: answer it in the contract's terms.
    frameworkErrors: (_error, request, reply) => {
      const tracker = isTrackerUrl(request.url);
      if (tracker) reply.headers(trackerHeaders(options.cors));
      return sendError(
        reply,
        400,
        tracker ? errorCodes.invalidWebsite : errorCodes.invalidPayload,
        `${tracker ? 'website' : 'url'}: is not valid percent-encoding`,
      );
    },
    ajv: {
      customOptions: {
        coerceTypes: false,
        removeAdditional: false,
        allErrors: false,
        formats: { mailbox: isEmailAddress },
      },
    },
  });

  const openApiDocument = collectOpenApi(app, { version });
  // Only JSON bodies are part of the contract: anything else is 415, not parsed as text.
  app.removeContentTypeParser(['text/plain']);

  // Before the faults: a page on a host the stub does not serve must not even use one up.
  app.addHook('onRequest', requireServedHost(options.host, options.allowedHosts));
  if (!options.openControl) app.addHook('onRequest', controlFromLoopbackOnly());
  const applyFault = async (fault: ReturnType<typeof context.faults.take>, reply: FastifyReply) => {
    if (!fault) return;
    if (fault.delay_ms) await new Promise((resolve) => setTimeout(resolve, fault.delay_ms));
    if (fault.status === undefined) return;
    // The service's 422 is FastAPI's validation answer, never the contract's error body.
    if (fault.status === 422) {
      return sendValidationFailure(reply, [
        { loc: ['body'], msg: 'injected by /__stub/faults', type: 'value_error' },
      ]);
    }
    const retryAfter: Record<string, string> =
      fault.status === 429 || fault.status === 503
        ? { 'retry-after': String(fault.retry_after ?? 1) }
        : {};
    return sendError(
      reply,
      fault.status,
      fault.i18n_code ?? 'injected_fault',
      'injected by /__stub/faults',
      retryAfter,
    );
  };
  const faultRequest = (request: FastifyRequest) => ({
    method: request.method,
    path: request.url.split('?')[0] ?? '',
    headers: request.headers,
  });
  app.addHook('onRequest', async (request, reply) =>
    applyFault(context.faults.take(faultRequest(request)), reply),
  );
  // Rules that match text in the body, once it is read and before it is validated.
  app.addHook('preValidation', async (request, reply) =>
    applyFault(context.faults.take({ ...faultRequest(request), body: request.body }), reply),
  );

  app.addHook('onSend', async (request, reply) => {
    if (isTrackerUrl(request.url)) reply.headers(trackerHeaders(options.cors));
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    // The service's routes answer FastAPI's 422; the stub's own surface keeps its 400.
    const issues = request.url.startsWith('/v1/') ? validationIssuesFor(error) : undefined;
    if (issues) return sendValidationFailure(reply, issues);
    const { status, code, message } = contractErrorFor(error);
    if (status >= 500)
      writeLog({ level: 'ERROR', type: 'error', message: error.message, stack: error.stack });
    const headers = 'headers' in error ? (error.headers as Record<string, string>) : {};
    const bare = error instanceof ContractError && error.bare;
    return sendError(reply, status, code, message, headers, bare);
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      404,
      errorCodes.notFound,
      `${request.method} ${request.url.split('?')[0]}: no such endpoint`,
    ),
  );

  emailRoutes(app, context);
  aiRoutes(app, context);
  trackerRoutes(app, context);
  stubAdminRoutes(app, context);
  if (options.demo) {
    demoRoutes(app, context);
    contactRelayRoute(app, context);
  }
  app.get('/openapi.json', { schema: { hide: true } }, async () => openApiDocument());

  const warmedUp = geo.warmUp();
  return {
    app,
    context,
    warmedUp,
    close: async () => {
      await app.close();
      context.models.close();
      context.accounts.close();
      context.emails.close();
      context.visits.close();
    },
  };
}
