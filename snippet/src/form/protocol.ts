// The contact endpoint protocol (PROTOCOL.md) on the TypeScript side: the widget and the relay
// import these names, limits and codes; nothing restates them.

export const contactFields = {
  name: 'name',
  email: 'email',
  subject: 'subject',
  message: 'message',
  honeypot: 'homepage',
  startedAt: 'started_at',
} as const;

export const contactLimits = {
  nameChars: 200,
  subjectChars: 200,
  messageChars: 10_000,
  bodyBytes: 64 * 1024,
  minFillMs: 3_000,
} as const;

export const contactErrorCodes = {
  invalidField: 'invalid_field',
  spamSuspected: 'spam_suspected',
  forbiddenOrigin: 'forbidden_origin',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  rateLimited: 'rate_limited',
  notConfigured: 'not_configured',
  upstreamFailed: 'upstream_failed',
} as const;

export type ContactErrorCode = (typeof contactErrorCodes)[keyof typeof contactErrorCodes];

export const contactErrorStatus: Record<ContactErrorCode, number> = {
  invalid_field: 400,
  spam_suspected: 400,
  forbidden_origin: 403,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  not_configured: 503,
  upstream_failed: 502,
};

/** The query parameter a native (no JavaScript) post comes back with after success. */
export const SENT_QUERY_PARAM = 'sent';

/** One address: one `@`, a dot in the domain, no space or list/display-name punctuation. */
export const EMAIL_PATTERN = /^[^\s@,;<>()"]+@[^\s@,;<>()"]+\.[^\s@,;<>()"]+$/;

export interface ContactSuccess {
  status: 'ok';
  message: string;
}

export interface ContactFailure {
  status: 'ko';
  error: string;
  i18n_code: ContactErrorCode;
  field?: string;
}
