// The relay: a web-standard `(Request) => Promise<Response>` that checks a visitor's post, adds
// the API token and the fixed recipient, and sends the message through /v1/email. The checks run
// in the order of contract/contact-protocol.md.
import { SitebeamApiError } from '../client/index.js';
import type { ContactSuccess, ContactTicket } from '../form/protocol.js';
import { contactErrorCodes, contactFields } from '../form/protocol.js';
import { visitorKey } from './client-address.js';
import { type RelayConfig, type ResolvedRelayConfig, resolveConfig } from './config.js';
import { consentGiven, consentMissingText } from './consent.js';
import { instanceClient } from './instance-client.js';
import { composeEmail } from './mail.js';
import { createOutboxAdmin, isOutboxAdminPath } from './outbox/admin.js';
import {
  createBreaker,
  createDelivery,
  createRecoveryWatch,
  outcomeOf,
  retryDelayMs,
} from './outbox/delivery.js';
import type { NewMessage, Outbox } from './outbox/outbox.js';
import { createPageAccess, originOf } from './page-access.js';
import { createRateLimiter } from './rate-limit.js';
import {
  confirmPage,
  htmlRefusal,
  jsonRefusal,
  jsonResponse,
  methodNotAllowed,
  preflight,
  queuedMessage,
  RETURN_FIELD,
  redirectSent,
  sentMessage,
  visitorText,
} from './responses.js';
import {
  bodyKind,
  checkFields,
  honeypotFilled,
  isRefusal,
  parseFields,
  type Refusal,
  readBody,
} from './submission.js';
import { createTicketIssuer, ticketKey } from './ticket.js';

export interface RelayContext {
  /** The visitor's address as the platform knows it (the Node command passes the socket's). */
  clientIp?: string;
  /** Set by an adapter that received a `Host` header no URL can be built from. */
  malformedHost?: boolean;
}

export type RelayHandler = (request: Request, context?: RelayContext) => Promise<Response>;

/** Builds the handler; throws a RelayConfigError naming the option when the configuration is unusable. */
export function createRelayHandler(config: RelayConfig): RelayHandler {
  const settings = resolveConfig(config);
  const limiter = createRateLimiter({
    limit: settings.rateLimit,
    windowMs: settings.rateLimitWindowS * 1000,
    counter: settings.rateLimitCounter,
    scope: 'contact',
  });
  const tickets = createTicketIssuer(
    ticketKey(settings.ticketSecret, settings.apiToken),
    settings.minFillMs,
  );
  const client = instanceClient(settings);
  const pageAccess = createPageAccess(settings);
  const outbox = openOutbox(settings);
  const admin = createOutboxAdmin({
    outbox,
    secret: settings.adminSecret,
    counter: settings.rateLimitCounter,
    log: settings.log,
  });
  const breaker = createBreaker(settings.outboxSettings);
  const recovery = createRecoveryWatch();
  /** Whether the message is now kept where a restart cannot lose it; logs why not. */
  const keep = async (message: NewMessage): Promise<boolean> => {
    if (!outbox) return false;
    try {
      const id = await outbox.keep(message);
      if (id) {
        settings.log(
          `sitebeam-relay: outbox: message ${id} kept; next try in ${Math.round(message.delayMs / 1000)} s.`,
        );
        return true;
      }
      settings.log(
        `sitebeam-relay: outbox: full (${settings.outboxSettings.maxMessages} messages or ${settings.outboxSettings.maxBytes} bytes); the visitor was asked to try again.`,
      );
    } catch (error) {
      settings.log(
        `sitebeam-relay: outbox: ${outbox.description} could not keep the message (${error instanceof Error ? error.message : String(error)}); the visitor was asked to try again.`,
      );
    }
    return false;
  };
  const refusal = (code: Refusal['code'], field?: string): Refusal => ({
    code,
    error: visitorText[code] ?? code,
    ...(field ? { field } : {}),
  });

  return async (request, context = {}) => {
    const visitor = visitorKey({
      header: settings.clientIpHeader ? request.headers.get(settings.clientIpHeader) : null,
      trustedHops: settings.trustedProxyHops,
      connection: context.clientIp,
    });
    if (!context.malformedHost && isOutboxAdminPath(request)) return admin(request, visitor);
    const retryAfter =
      request.method === 'POST' ? await limiter.take(visitor, Date.now()) : undefined;
    const { allowedPage, cors, isAllowed, ownOrigin } = pageAccess(request);

    if (retryAfter !== undefined) {
      return jsonRefusal(refusal(contactErrorCodes.rateLimited), {
        ...cors,
        'retry-after': String(retryAfter),
      });
    }
    if (context.malformedHost) return jsonRefusal(refusal(contactErrorCodes.invalidRequest));
    if (request.method === 'OPTIONS') {
      if (!allowedPage) return jsonRefusal(refusal(contactErrorCodes.forbiddenOrigin));
      return preflight(cors, 'GET, POST');
    }
    if (request.method === 'GET') {
      if (!allowedPage) return jsonRefusal(refusal(contactErrorCodes.forbiddenOrigin));
      const answer: ContactTicket = { status: 'ok', ticket: await tickets.issue(Date.now()) };
      return jsonResponse(200, answer, cors);
    }
    if (request.method !== 'POST') return methodNotAllowed(cors);

    const kind = bodyKind(request.headers.get('content-type'));
    if (!kind) return jsonRefusal(refusal(contactErrorCodes.unsupportedMediaType), cors);
    const formPage = (fields: Record<string, unknown> = {}) =>
      returnPage(
        request.headers.get('referer'),
        fields[RETURN_FIELD],
        ownOrigin,
        settings,
        isAllowed,
      );
    const refuse = (reason: Refusal, headers: Record<string, string> = {}, page = formPage()) =>
      kind === 'json'
        ? jsonRefusal(reason, { ...cors, ...headers })
        : htmlRefusal(reason, page, headers);
    if (!allowedPage) return refuse(refusal(contactErrorCodes.forbiddenOrigin));

    const body = await readBody(request);
    if (isRefusal(body)) return refuse(body, { connection: 'close' });
    const fields = parseFields(kind, body);
    if (isRefusal(fields)) return refuse(fields);
    const page = formPage(fields);
    if (honeypotFilled(fields)) return refuse(refusal(contactErrorCodes.spamSuspected), {}, page);
    const confirmation = (ticket: string, reason?: Refusal) =>
      confirmPage({
        fields,
        ticket,
        action: new URL(request.url).pathname,
        returnUrl: page,
        consent: settings.consent,
        ...(reason ? { refusal: reason } : {}),
      });
    const ticket = fields[contactFields.ticket];
    const verdict = await tickets.check(ticket, Date.now());
    if (verdict !== 'valid') {
      if (kind === 'form') return confirmation(await tickets.issue(Date.now()));
      return refuse(refusal(contactErrorCodes.spamSuspected, contactFields.ticket));
    }
    const submission = checkFields(fields);
    if (isRefusal(submission)) return refuse(submission, {}, page);
    if (settings.consent && !consentGiven(fields[contactFields.consent])) {
      const missing: Refusal = {
        code: contactErrorCodes.invalidField,
        error: consentMissingText,
        field: contactFields.consent,
      };
      // Without JavaScript the visitor ticks the box on the page, the text kept, the ticket too.
      return kind === 'json' ? refuse(missing) : confirmation(ticket as string, missing);
    }

    const mail = composeEmail(submission, settings);
    const queued = () => {
      if (kind !== 'json') return redirectSent(page);
      const answer: ContactSuccess = { status: 'ok', queued: true, message: queuedMessage };
      return jsonResponse(202, answer, cors);
    };
    // The instance did not answer a moment ago: the visitor need not wait for a time-out too.
    const breakerOpenMs = outbox ? breaker.openFor(Date.now()) : 0;
    if (breakerOpenMs > 0) {
      const lastError = 'not tried yet: the instance did not answer a moment before';
      if (await keep({ mail, tries: 0, lastError, delayMs: breakerOpenMs })) return queued();
      return refuse(refusal(contactErrorCodes.upstreamFailed), {}, page);
    }
    try {
      await client.sendEmail(mail);
    } catch (error) {
      const failure = upstreamFailure(error, settings.log);
      const outcome = outcomeOf(error, settings.apiToken);
      breaker.note(outcome, Date.now());
      recovery.recovered(outcome);
      if (outcome.kind === 'passing') {
        const delayMs = retryDelayMs(1, outcome.retryAfterS, settings.outboxSettings);
        if (await keep({ mail, tries: 1, lastError: outcome.error, delayMs })) return queued();
      }
      const headers: Record<string, string> =
        failure.retryAfter === undefined ? {} : { 'retry-after': String(failure.retryAfter) };
      return refuse(failure.refused ?? refusal(failure.code), headers, page);
    }
    breaker.note({ kind: 'sent' }, Date.now());
    if (outbox && recovery.recovered({ kind: 'sent' })) {
      outbox.drain().catch((error: unknown) => {
        settings.log(`sitebeam-relay: outbox: could not start the drain: ${String(error)}`);
      });
    }
    const answer: ContactSuccess = { status: 'ok', message: sentMessage };
    return kind === 'json' ? jsonResponse(200, answer, cors) : redirectSent(page);
  };
}

/** The configured store, opened with the relay's client and log; none when the caps are 0. */
function openOutbox(settings: ResolvedRelayConfig): Outbox | undefined {
  const { outbox, outboxSettings } = settings;
  if (!outbox || outboxSettings.maxMessages === 0 || outboxSettings.maxBytes === 0)
    return undefined;
  return outbox(
    createDelivery({
      apiUrl: settings.apiUrl,
      apiToken: settings.apiToken,
      apiTimeoutMs: settings.apiTimeoutMs,
      fetch: settings.fetch,
      log: settings.log,
      settings: outboxSettings,
    }),
  );
}

/** The visitor's field behind each member of the email the relay composes. */
const visitorFieldOf: Record<string, string> = {
  replyto: contactFields.email,
  subject: contactFields.subject,
  content: contactFields.message,
};

/** What the visitor is told about a failed API call; the real cause goes to the log only. */
function upstreamFailure(
  error: unknown,
  log: ResolvedRelayConfig['log'],
): { code: Refusal['code']; retryAfter?: number; refused?: Refusal } {
  if (!(error instanceof SitebeamApiError)) {
    log(`sitebeam-relay: sending failed unexpectedly: ${String(error)}`);
    return { code: contactErrorCodes.upstreamFailed };
  }
  const cid = error.cid ? ` (cid ${error.cid})` : '';
  log(
    `sitebeam-relay: the API refused the message: ${error.status} ${error.code}: ${error.message}${cid}`,
  );
  // A field the visitor wrote that the instance refused: retrying cannot help, correcting can.
  const visitorField = error.field === undefined ? undefined : visitorFieldOf[error.field];
  if (visitorField) {
    const reason = error.message.replace(`${error.field}: `, '');
    const refused: Refusal = {
      code: contactErrorCodes.invalidField,
      field: visitorField,
      error: `The mail service refused this ${visitorField}: ${reason}.`,
    };
    return { code: refused.code, refused };
  }
  // Refused for the owner's settings (token, addresses, switched-off APIs): the owner must act.
  if (error.field !== undefined || [401, 403, 405].includes(error.status)) {
    return { code: contactErrorCodes.notConfigured };
  }
  if (error.status === 429) {
    return { code: contactErrorCodes.rateLimited, retryAfter: error.retryAfterSeconds ?? 60 };
  }
  return { code: contactErrorCodes.upstreamFailed };
}

/**
 * The page a native post returns to: a full `Referer` on an allowed origin (or, from the relay's
 * confirmation page, the page it kept), else the configured page, else the Referer's origin.
 */
function returnPage(
  referer: string | null,
  kept: unknown,
  ownOrigin: string | undefined,
  settings: Pick<ResolvedRelayConfig, 'allowedOrigins' | 'redirectUrl'>,
  isAllowed: (origin: string) => boolean,
): string {
  const origin = originOf(referer);
  const keptOrigin = typeof kept === 'string' ? originOf(kept) : undefined;
  const fromOwnPage = ownOrigin !== undefined && origin === ownOrigin;
  if (fromOwnPage && keptOrigin !== undefined && isAllowed(keptOrigin)) {
    return kept as string;
  }
  const page = origin !== undefined && isAllowed(origin) ? new URL(referer as string) : undefined;
  if (page && (page.pathname !== '/' || page.search !== '')) return page.href;
  return settings.redirectUrl ?? page?.href ?? `${settings.allowedOrigins[0]}/`;
}
