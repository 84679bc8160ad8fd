// The outbox's admin route, for `sitebeam-relay outbox --url` where the owner cannot reach the store
// itself (a Durable Object, Deno KV): list, retry, delete, behind the secret set in the relay's
// environment (SITEBEAM_ADMIN_SECRET), sent as a bearer token. The comparison takes the same time
// whatever the guess; the secret is never logged or echoed; every request counts toward a rate limit
// of its own; a browser's request (any Origin) is refused, so no page can use an owner's session.
import { createRateLimiter, type WindowCounter } from '../rate-limit.js';
import { jsonResponse } from '../responses.js';
import type { Outbox, OutboxChange } from './outbox.js';

export const OUTBOX_ADMIN_PATH = '/admin/outbox';

/** Requests per visitor per minute: the owner's command makes one at a time. */
const ADMIN_RATE_LIMIT = 30;

const MESSAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface OutboxAdminOptions {
  outbox: Outbox | undefined;
  secret: string | undefined;
  counter?: WindowCounter | undefined;
  log: (line: string) => void;
}

/** Whether `request` is for the admin route (served whatever the configuration, off or on). */
export const isOutboxAdminPath = (request: Request): boolean => {
  const path = new URL(request.url).pathname;
  return path === OUTBOX_ADMIN_PATH || path.startsWith(`${OUTBOX_ADMIN_PATH}/`);
};

export function createOutboxAdmin({ outbox, secret, counter, log }: OutboxAdminOptions) {
  const limiter = createRateLimiter({
    limit: ADMIN_RATE_LIMIT,
    windowMs: 60_000,
    scope: 'admin',
    ...(counter ? { counter } : {}),
  });
  const expected = secret === undefined ? undefined : digest(secret);
  const refuse = (status: number, code: string, error: string, headers = {}) =>
    jsonResponse(status, { status: 'ko', error, i18n_code: code }, headers);

  return async (request: Request, visitor: string): Promise<Response> => {
    if (!outbox || expected === undefined) {
      return refuse(
        404,
        'not_configured',
        outbox
          ? 'The outbox admin route is off: set SITEBEAM_ADMIN_SECRET.'
          : 'This relay has no outbox.',
      );
    }
    const retryAfter = await limiter.take(visitor, Date.now());
    if (retryAfter !== undefined) {
      return refuse(429, 'rate_limited', 'Too many requests.', {
        'retry-after': String(retryAfter),
      });
    }
    if (request.headers.has('origin')) {
      return refuse(403, 'forbidden_origin', 'The admin route is not for browsers.');
    }
    const given = /^Bearer (\S+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
    if (given === undefined || !sameBytes(await digest(given), await expected)) {
      log(`sitebeam-relay: outbox admin: refused a request without the right secret (${visitor}).`);
      return refuse(401, 'unauthorized', 'The admin secret is missing or wrong.', {
        'www-authenticate': 'Bearer',
      });
    }

    const rest = new URL(request.url).pathname.slice(OUTBOX_ADMIN_PATH.length);
    if (rest === '' || rest === '/') {
      if (request.method !== 'GET') return methodNotAllowed('GET');
      return jsonResponse(200, {
        status: 'ok',
        store: outbox.description,
        messages: await outbox.list(),
      });
    }
    const [, id, action] = /^\/([^/]+)(\/retry)?$/.exec(rest) ?? [];
    if (!id || !MESSAGE_ID.test(id)) return refuse(404, 'not_found', 'No such message.');
    let change: OutboxChange;
    if (action) {
      if (request.method !== 'POST') return methodNotAllowed('POST');
      change = await outbox.retry(id);
    } else {
      if (request.method !== 'DELETE') return methodNotAllowed('DELETE');
      change = await outbox.remove(id);
    }
    if (change === 'not_found') return refuse(404, 'not_found', 'No such message.');
    if (change === 'busy') {
      return refuse(409, 'busy', 'The message is being sent right now: ask again in a minute.');
    }
    return jsonResponse(200, { status: 'ok' });
  };

  function methodNotAllowed(allow: string) {
    return refuse(405, 'method_not_allowed', `Use ${allow}.`, { allow });
  }
}

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(
    await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`sitebeam-admin:${text}`)),
  );
}

/** Compares two digests of the same length in a time that does not depend on where they differ. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.length ^ b.length;
  for (let index = 0; index < a.length; index += 1) {
    difference |= (a[index] as number) ^ (b[index] ?? 0);
  }
  return difference === 0;
}
