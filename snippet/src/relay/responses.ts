// The relay's answers: JSON for the widget, a redirect or a small page for a native form post.
import {
  CONTACT_ALLOWED_METHODS,
  type ContactErrorCode,
  contactErrorCodes,
  contactErrorStatus,
  contactFields,
  SENT_QUERY_PARAM,
} from '../form/protocol.js';
import { type ConsentConfig, consentCheckboxHtml, consentGiven } from './consent.js';
import { escapeHtml } from './html.js';
import type { Refusal } from './submission.js';

export const sentMessage = 'Thank you, your message was sent.';

/** The answer of a message kept in the outbox: received, and delivered once the instance takes it. */
export const queuedMessage = 'Thank you, your message was received and will be delivered shortly.';

export const visitorText: Partial<Record<ContactErrorCode, string>> = {
  [contactErrorCodes.forbiddenOrigin]: 'This page may not send messages through this form.',
  [contactErrorCodes.invalidRequest]: 'The request could not be read (malformed Host header).',
  [contactErrorCodes.methodNotAllowed]: 'Send the form with POST.',
  [contactErrorCodes.spamSuspected]:
    'The message looks automated and was not sent. Please wait a few seconds and try again.',
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
// Pages of the relay hold no script and cannot be framed. (No form-action: Chrome applies it to
// the redirect after the post too, and the visitor returns to the site's origin.)
export const pagePolicy = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";
const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': pagePolicy,
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
    headers: { ...commonHeaders, ...pageHeaders, ...headers },
  });
}

export interface ConfirmPageParts {
  /** What the visitor posted, shown again in the form. */
  fields: Record<string, unknown>;
  /** The fill-time ticket the form carries. */
  ticket: string;
  /** The relay's path: the form posts there again. */
  action: string;
  /** The site page the visitor returns to once the message is sent. */
  returnUrl: string;
  consent?: ConsentConfig;
  /** Why the message was not sent; unset: the fill-time ticket asks for a confirmation. */
  refusal?: Refusal;
}

/**
 * The relay's no-JavaScript form: the visitor's text, editable, posting back here. It answers a
 * post without a valid ticket ("confirm and send", with a fresh ticket) and one the visitor can
 * put right on the page (consent not given).
 */
export function confirmPage({
  fields,
  ticket,
  action,
  returnUrl,
  consent,
  refusal,
}: ConfirmPageParts): Response {
  const value = (name: string) => {
    const text = fields[name];
    return escapeHtml(typeof text === 'string' ? text : '');
  };
  const input = (name: string, label: string, extra = '') =>
    `<p><label>${label}<br><input name="${name}" value="${value(name)}"${extra}></label></p>`;
  const title = refusal ? 'Message not sent' : 'Please confirm your message';
  const intro = refusal
    ? `<p role="alert">${escapeHtml(refusal.error)}</p>`
    : '<p>Check your message and press Send.</p>';
  const checkbox = consent
    ? `${consentCheckboxHtml(consent, contactFields.consent, consentGiven(fields[contactFields.consent]))}\n`
    : '';
  const page = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>body{font:1rem/1.5 system-ui,sans-serif;max-width:36em;margin:2em auto;padding:0 1em}input,textarea{width:100%;font:inherit}input[type=checkbox]{width:auto}</style>
<main>
<h1>${title}</h1>
${intro}
<form method="post" action="${escapeHtml(action)}">
${input(contactFields.name, 'Name', ' required')}
${input(contactFields.email, 'Email', ' type="email" required')}
${input(contactFields.subject, 'Subject (optional)')}
<p><label>Message<br><textarea name="${contactFields.message}" rows="8" required>${value(contactFields.message)}</textarea></label></p>
${checkbox}<div aria-hidden="true" style="position:absolute;left:-9999px"><label>Leave this field empty <input name="${contactFields.honeypot}" tabindex="-1" autocomplete="off"></label></div>
<input type="hidden" name="${contactFields.ticket}" value="${escapeHtml(ticket)}">
<input type="hidden" name="${RETURN_FIELD}" value="${escapeHtml(returnUrl)}">
<p><button>Send</button></p>
</form>
</main>
</html>
`;
  return new Response(page, {
    status: contactErrorStatus[refusal?.code ?? contactErrorCodes.spamSuspected],
    headers: { ...commonHeaders, ...pageHeaders },
  });
}

/** The confirmation page's hidden field keeping the page the visitor came from. */
export const RETURN_FIELD = 'sitebeam_return';

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

export function methodNotAllowed(headers: Record<string, string>): Response {
  return jsonRefusal(
    {
      code: contactErrorCodes.methodNotAllowed,
      error: visitorText[contactErrorCodes.methodNotAllowed] as string,
    },
    { ...headers, allow: CONTACT_ALLOWED_METHODS },
  );
}
