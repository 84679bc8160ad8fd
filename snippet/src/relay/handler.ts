// The relay: a web-standard `(Request) => Promise<Response>` that checks a visitor's post, adds
// the API token and the fixed recipient, and sends the message through /v1/email.
import { createClient, SitebeamApiError } from '../client/index.js';
import { contactErrorCodes } from '../form/protocol.js';
import { type RelayConfig, type ResolvedRelayConfig, resolveConfig } from './config.js';
import { composeEmail } from './mail.js';
import { createRateLimiter } from './rate-limit.js';
import {
  htmlRefusal,
  jsonRefusal,
  jsonResponse,
  methodNotAllowed,
  preflight,
  redirectSent,
  sentMessage,
  visitorText,
} from './responses.js';
import {
  bodyKind,
  checkFields,
  isRefusal,
  parseFields,
  type Refusal,
  readBody,
  spamSign,
} from './submission.js';

export interface RelayContext {
  /** The visitor's address as the platform knows it (the Node command passes the socket's). */
  clientIp?: string;
}

export type RelayHandler = (request: Request, context?: RelayContext) => Promise<Response>;

/** Builds the handler; throws a RelayConfigError naming the option when the configuration is unusable. */
export function createRelayHandler(config: RelayConfig): RelayHandler {
  const settings = resolveConfig(config);
  const limiter = createRateLimiter(settings.rateLimitPerMinute);
  const client = createClient({
    baseUrl: settings.apiUrl,
    token: settings.apiToken,
    timeoutMs: settings.apiTimeoutMs,
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
  });
  const refusal = (code: Refusal['code']): Refusal => ({ code, error: visitorText[code] ?? code });

  return async (request, context = {}) => {
    const { allowedPage, cors, isAllowed } = pageAccess(request, settings.allowedOrigins);
    if (request.method === 'OPTIONS') {
      if (!allowedPage) return jsonRefusal(refusal(contactErrorCodes.forbiddenOrigin));
      return preflight(cors, 'POST');
    }
    if (request.method !== 'POST') return methodNotAllowed();

    const kind = bodyKind(request.headers.get('content-type'));
    if (!kind) return jsonRefusal(refusal(contactErrorCodes.unsupportedMediaType), cors);
    const formPage = returnPage(
      request.headers.get('referer'),
      isAllowed,
      settings.allowedOrigins,
      settings.redirectUrl,
    );
    const refuse = (reason: Refusal, headers: Record<string, string> = {}) =>
      kind === 'json'
        ? jsonRefusal(reason, { ...cors, ...headers })
        : htmlRefusal(reason, formPage, headers);
    if (!allowedPage) return refuse(refusal(contactErrorCodes.forbiddenOrigin));

    const retryAfter = limiter.take(visitorKey(request, context, settings), Date.now());
    if (retryAfter !== undefined) {
      return refuse(refusal(contactErrorCodes.rateLimited), { 'retry-after': String(retryAfter) });
    }
    const body = await readBody(request);
    if (isRefusal(body)) return refuse(body);
    const fields = parseFields(kind, body);
    if (isRefusal(fields)) return refuse(fields);
    const spam = spamSign(fields);
    if (spam) return refuse(spam);
    const submission = checkFields(fields);
    if (isRefusal(submission)) return refuse(submission);

    try {
      await client.sendEmail(composeEmail(submission, settings));
    } catch (error) {
      const failure = upstreamFailure(error, settings.log);
      const headers: Record<string, string> =
        failure.retryAfter === undefined ? {} : { 'retry-after': String(failure.retryAfter) };
      return refuse(refusal(failure.code), headers);
    }
    return kind === 'json'
      ? jsonResponse(200, { status: 'ok', message: sentMessage }, cors)
      : redirectSent(formPage);
  };
}

/** What the visitor is told about a failed API call; the real cause goes to the log only. */
function upstreamFailure(
  error: unknown,
  log: ResolvedRelayConfig['log'],
): { code: Refusal['code']; retryAfter?: number } {
  if (!(error instanceof SitebeamApiError)) {
    log(`sitebeam-relay: sending failed unexpectedly: ${String(error)}`);
    return { code: contactErrorCodes.upstreamFailed };
  }
  const cid = error.cid ? ` (cid ${error.cid})` : '';
  log(
    `sitebeam-relay: the API refused the message: ${error.status} ${error.code}: ${error.message}${cid}`,
  );
  if (error.status === 401 || error.status === 403 || error.status === 405) {
    return { code: contactErrorCodes.notConfigured };
  }
  if (error.status === 429) {
    return { code: contactErrorCodes.rateLimited, retryAfter: error.retryAfterSeconds ?? 60 };
  }
  return { code: contactErrorCodes.upstreamFailed };
}

/** The page a native post returns to: a full `Referer` on an allowed origin, else the configured page. */
function returnPage(
  referer: string | null,
  isAllowed: (origin: string) => boolean,
  allowedOrigins: string[],
  redirectUrl: string | undefined,
): string {
  const origin = originOf(referer);
  const page = origin !== undefined && isAllowed(origin) ? new URL(referer as string) : undefined;
  if (page && (page.pathname !== '/' || page.search !== '')) return page.href;
  return redirectUrl ?? page?.href ?? `${allowedOrigins[0]}/`;
}

export interface PageAccess {
  /** No `Origin` nor `Referer` (a script), or one on an allowed origin. */
  allowedPage: boolean;
  /** The CORS headers an answer to this request carries. */
  cors: Record<string, string>;
  isAllowed: (origin: string) => boolean;
}

/** Whether the page behind `request` may post: its `Origin`, else its `Referer`, must be allowed. */
export function pageAccess(request: Request, allowedOrigins: string[]): PageAccess {
  const origin = request.headers.get('origin');
  const pageOrigin = origin ?? originOf(request.headers.get('referer'));
  // A page served from the relay's own origin (e.g. the stub's demo) is always allowed.
  const isAllowed = (candidate: string) =>
    candidate === new URL(request.url).origin || allowedOrigins.includes(candidate);
  const allowedPage = pageOrigin === undefined || isAllowed(pageOrigin);
  const cors: Record<string, string> =
    origin && allowedPage ? { 'access-control-allow-origin': origin } : {};
  return { allowedPage, cors, isAllowed };
}

export function visitorKey(
  request: Request,
  context: RelayContext,
  settings: Pick<ResolvedRelayConfig, 'clientIpHeader'>,
): string {
  const forwarded = settings.clientIpHeader && request.headers.get(settings.clientIpHeader);
  // Without a trusted source of the address every visitor shares one allowance: strict, not open.
  return forwarded?.split(',')[0]?.trim() || context.clientIp || 'unknown';
}

export function originOf(url: string | null): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
