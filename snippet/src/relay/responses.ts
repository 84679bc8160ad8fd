// The relay's answers: JSON for the widget, a redirect or a small page for a native form post.
import {
  type ContactErrorCode,
  contactErrorCodes,
  contactErrorStatus,
  SENT_QUERY_PARAM,
} from '../form/protocol.js';
import { escapeHtml } from './mail.js';
import type { Refusal } from './submission.js';

export const sentMessage = 'Thank you, your message was sent.';

export const visitorText: Partial<Record<ContactErrorCode, string>> = {
  [contactErrorCodes.forbiddenOrigin]: 'This page may not send messages through this form.',
  [contactErrorCodes.unsupportedMediaType]: 'The form must be sent as JSON or as a regular form.',
  [contactErrorCodes.rateLimited]:
    'Too many messages were sent. Please try again in a few minutes.',
  [contactErrorCodes.notConfigured]:
    'The contact form is not set up yet, so the message was not sent. Please reach the site another way.',
  [contactErrorCodes.upstreamFailed]:
    'The message could not be sent right now. Please try again in a moment.',
};

export const commonHeaders = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  vary: 'Origin',
};

export function jsonResponse(status: number, body: object, headers: HeadersInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...commonHeaders, 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

export function jsonRefusal(refusal: Refusal, headers: HeadersInit = {}): Response {
  const body = {
    status: 'ko',
    error: refusal.error,
    i18n_code: refusal.code,
    ...(refusal.field ? { field: refusal.field } : {}),
  };
  return jsonResponse(contactErrorStatus[refusal.code], body, headers);
}

/** The page a visitor without JavaScript sees when the message was refused. */
export function htmlRefusal(
  refusal: Refusal,
  backUrl: string,
  headers: HeadersInit = {},
): Response {
  const page = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Message not sent</title>
<main>
<h1>Message not sent</h1>
<p>${escapeHtml(refusal.error)}</p>
<p>Use your browser's Back button to return to the form with what you typed, or <a href="${escapeHtml(backUrl)}">go back to the site</a>.</p>
</main>
</html>
`;
  return new Response(page, {
    status: contactErrorStatus[refusal.code],
    headers: { ...commonHeaders, 'content-type': 'text/html; charset=utf-8', ...headers },
  });
}

/** 303 to the page the form came from, marked `sent=1` so it can thank the visitor. */
export function redirectSent(pageUrl: string): Response {
  const target = new URL(pageUrl);
  target.searchParams.set(SENT_QUERY_PARAM, '1');
  return new Response(null, { status: 303, headers: { ...commonHeaders, location: target.href } });
}

/** The answer to a CORS pre-flight from an allowed page. */
export function preflight(cors: Record<string, string>, methods: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...cors,
      'access-control-allow-methods': methods,
      'access-control-allow-headers': 'content-type, accept',
      'access-control-max-age': '86400',
      vary: 'Origin',
    },
  });
}

export function methodNotAllowed(): Response {
  return jsonResponse(
    405,
    { status: 'ko', error: 'Send the form with POST.', i18n_code: 'method_not_allowed' },
    { allow: 'POST, OPTIONS' },
  );
}
