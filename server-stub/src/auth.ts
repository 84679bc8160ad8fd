// X-Auth-Token, the instance's own switches, the account's enablement and the optional rate limit,
// checked before the body is even read (so a caller without a token learns nothing about the body).
import type { onRequestHookHandler } from 'fastify';
import { AUTH_HEADER, errorCodes } from 'sitebeam/client';
import type { StubContext } from './context.js';
import { ContractError } from './errors.js';

const WINDOW_MS = 60_000;

export function requireAccount(context: StubContext, api: 'email' | 'ai'): onRequestHookHandler {
  const callsInWindow = new Map<string, { windowStart: number; count: number }>();

  return async (request) => {
    const header = request.headers[AUTH_HEADER.toLowerCase()];
    const token = Array.isArray(header) ? header[0] : header;
    const account = token ? context.accounts.authenticate(token) : undefined;
    if (!account) {
      throw new ContractError(
        errorCodes.authFailed,
        token ? `${AUTH_HEADER}: the token is not known` : `${AUTH_HEADER}: the header is missing`,
      );
    }
    if (api === 'email' && !context.options.emailEnabled) {
      throw new ContractError(
        errorCodes.disabledEmailService,
        'email sending is switched off on this instance',
      );
    }
    if (api === 'email' && !account.email_api) {
      throw new ContractError(
        errorCodes.notEmailApi,
        'this account is not enabled for the email API',
      );
    }
    if (api === 'ai' && context.options.communityEdition) {
      throw new ContractError(errorCodes.cwaiNotImplemented, 'Cwai not implemented');
    }
    if (api === 'ai' && !account.ai_api) {
      // The service's guard answers without `status` or `cid` (the cid is in a header).
      throw new ContractError(errorCodes.notCwaiApi, 'permission denied', { bare: true });
    }

    const limit = context.options.rateLimitPerMinute;
    if (limit > 0) {
      const now = Date.now();
      let window = callsInWindow.get(account.email);
      if (!window || now - window.windowStart >= WINDOW_MS) {
        window = { windowStart: now, count: 0 };
        callsInWindow.set(account.email, window);
      }
      window.count += 1;
      if (window.count > limit) {
        const retryAfter = Math.ceil((window.windowStart + WINDOW_MS - now) / 1000);
        throw new ContractError(errorCodes.rateLimited, `over ${limit} calls a minute`, {
          headers: { 'retry-after': String(Math.max(1, retryAfter)) },
        });
      }
    }
    request.account = account;
  };
}
