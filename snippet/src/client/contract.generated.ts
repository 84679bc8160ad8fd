// Generated from contract/sitebeam-contract.json by contract/generate.mjs — do not edit: change the JSON and run `npm run contract`.

// The Sitebeam API
export const AUTH_HEADER = 'X-Auth-Token';

export const apiPaths = {
  email: '/v1/email',
  models: '/v1/ai/models',
  prompt: '/v1/ai/prompt',
  modelPrefix: '/v1/ai/model/',
  trackerJsonPrefix: '/v1/tracker/json/',
  trackerImgPrefix: '/v1/tracker/img/',
} as const;

export const limits = {
  bodyBytes: 16_777_216,
  attachmentBytes: 10_485_760,
  subjectChars: 998,
  promptMessageChars: 32_768,
  websiteChars: 255,
  answerBytes: 1_048_576,
} as const;

export const errorCodes = {
  invalidPayload: 'invalid_payload',
  invalidWebsite: 'invalid_website',
  modelNotFound: 'model_not_found',
  authFailed: 'auth_failed',
  notEmailApi: 'not_emailapi',
  notAiApi: 'not_aiapi',
  notCwaiApi: 'not_cwaiapi',
  accountNotConfirmed: 'account_not_confirmed',
  notFound: 'not_found',
  cwaiModelNotFound: 'cwai_model_notfound',
  disabledEmailService: 'disabled_email_service',
  cwaiNotImplemented: 'cwai_not_implemened',
  cwaiApiNotEnabled: 'cwaiapi_not_enabled',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  rateLimited: 'rate_limited',
  modelLoading: 'model_loading',
} as const;

export type ErrorCode = (typeof errorCodes)[keyof typeof errorCodes];

/** The HTTP status that goes with each code. */
export const errorStatus: Record<ErrorCode, number> = {
  invalid_payload: 400,
  invalid_website: 400,
  model_not_found: 400,
  auth_failed: 401,
  not_emailapi: 403,
  not_aiapi: 403,
  not_cwaiapi: 403,
  account_not_confirmed: 403,
  not_found: 404,
  cwai_model_notfound: 404,
  disabled_email_service: 405,
  cwai_not_implemened: 405,
  cwaiapi_not_enabled: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  model_loading: 503,
};

export const statusValues = {
  ok: 'ok',
  ko: 'ko',
} as const;

/** What the real service answers.

The real service is comworkio/cwcloud-api (FastAPI), read from its releases ce-3.15.24 (AI routes implemented) and ce-3.16.15 (every AI route 405 cwai_not_implemened); contract/contract.md and contract/upstream.md. Any 2xx whose status is ok is success. */
export const upstream = {
  aiRelease: '3.15.24',
  ceRelease: '3.16.15',
  validationStatus: 422,
  loadStartedStatus: 202,
  internalErrorStatus: 500,
  cidHeader: 'x-cwcloud-cid',
} as const;

/** Domains the service's address validator refuses, themselves and every name under them. */
export const specialUseDomains = ['arpa', 'invalid', 'local', 'localhost', 'onion', 'test'] as const;

export const knownModels = ['gpt2', 'nlptownsentiment', 'nltksentiment', 'textblobsentiment', 'robertaemotion', 'mock', 'log'] as const;

export const integerSettings = ['max_length', 'num_return_sequences', 'no_repeat_ngram_size', 'num_beans', 'top_k'] as const;

export const positiveNumberSettings = ['top_p', 'temperature'] as const;

export const booleanSettings = ['early_stopping', 'do_sample', 'skip_special_tokens'] as const;

/** Setting names accepted for the service's own.

A client sends them under the service's name. */
export const promptSettingAliases = {
  num_beams: 'num_beans',
} as const;

export const UNKNOWN = 'unknown';

export const NO_REFERRER = 'None';

export const osNames = ['windows', 'macos', 'ios', 'android', 'linux', 'chromeos', 'unknown'] as const;

export const deviceClasses = ['computer', 'mobile', 'tablet', 'smarttv', 'console', 'wearable', 'bot', 'unknown'] as const;

export type OsName = (typeof osNames)[number];

export type DeviceClass = (typeof deviceClasses)[number];

/** The tracker tag's data-* attributes. */
export const trackerAttributes = {
  api: 'data-api',
  website: 'data-website',
  referrerPolicy: 'data-referrer-policy',
  keepQuery: 'data-keep-query',
  hash: 'data-hash',
  respectDnt: 'data-respect-dnt',
  trackAutomation: 'data-track-automation',
  trackLocalhost: 'data-track-localhost',
  exclude: 'data-exclude',
  debug: 'data-debug',
  consent: 'data-consent',
} as const;

// Every outbox: the plugin's, the module's and the relay's
/** The WordPress plugin's, the Drupal module's and the relay's outboxes alike. A failure whose status is in passingStatusRanges is passing: the mail is kept and tried again; any other failure is a refusal for good, reported at once and never kept. Status 0 is no answer at all: a refused connection, a name that does not resolve, a time-out. Retries start after about firstRetryS (jitter: half of it to all of it) and double up to maxRetryS, never before the instance's Retry-After (at most retryAfterMaxS); a mail is given up lifetimeHours after it was accepted. A send that times out or is refused opens the circuit breaker: for breakerS seconds new mail goes straight to the outbox. A run stops early after stopAfterSameFailures passing failures of the same kind in a row (the instance is down, not the mail). */
export const outboxPassingStatusRanges = [[0, 0], [408, 408], [429, 429], [500, 599]] as const;

export const outboxDefaults = {
  firstRetryS: 30,
  maxRetryS: 3600,
  retryAfterMaxS: 86_400,
  lifetimeHours: 72,
  breakerS: 30,
  stopAfterSameFailures: 3,
} as const;

export interface ErrorBody {
  status?: 'ko';
  error: string;
  i18n_code: ErrorCode | string;
  cid?: string;
}

export interface Attachment {
  mime_type: string;
  file_name: string;
  b64: string;
}

export interface EmailMessage {
  to: string;
  subject: string;
  from?: string;
  bcc?: string;
  content?: string;
  attachment?: Attachment;
  cc?: string;
  replyto?: string;
  from_name?: string;
}

export interface EmailSent {
  status: 'ok';
  adapter?: string;
  response?: unknown;
  id?: string;
}

export interface ModelList {
  models: string[];
  status: 'ok';
}

export interface PromptSettings {
  max_length?: number;
  num_return_sequences?: number;
  no_repeat_ngram_size?: number;
  num_beans?: number;
  top_k?: number;
  top_p?: number;
  temperature?: number;
  early_stopping?: boolean;
  do_sample?: boolean;
  skip_special_tokens?: boolean;
}

export interface PromptRequest {
  model: string;
  message: string;
  settings?: PromptSettings;
}

export interface PromptResponse {
  response: string[];
  score?: number | null;
  status: 'ok';
  cid?: string;
}

export interface ModelLoadResponse {
  status: 'ok';
  http_status?: number;
}

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export interface ValidationFailure {
  detail: ValidationIssue[];
}

export interface GeoInfos {
  status: 'ok' | 'ko';
  status_code?: number;
  city?: string;
  region?: string;
  country?: string;
  region_code?: string;
  country_iso?: string;
  lookup?: string;
  timezone?: string;
  utc_offset?: string;
  currency?: string;
  asn?: string;
  org?: string;
  ip?: string;
  network?: string;
  version?: 'IPv4' | 'IPv6' | string;
  hostname?: string;
  loc?: string;
  reason?: string;
}

export interface TrackerRecord {
  status: 'ok';
  type: 'tracker';
  time: string;
  host: string;
  user_agent: string;
  os: OsName | string;
  device: DeviceClass | string;
  browser: string;
  details: { brand: string; type: string };
  referrer: string;
  website: string;
  infos: GeoInfos;
  level?: string;
  cid?: string;
}

/** The type of each answer of the API: clients check every 2xx answer against it at run time (fields they do not know pass) and refuse one that differs, or one over limits.answerBytes, as invalid_response. */
export const answerShapes = {
  email: {
    kind: 'object',
    fields: {
      status: { type: { kind: 'literal', value: 'ok' } },
      adapter: { type: { kind: 'string' }, optional: true },
      response: { type: { kind: 'unknown' }, optional: true },
      id: { type: { kind: 'string' }, optional: true },
    },
  },
  models: {
    kind: 'object',
    fields: {
      models: { type: { kind: 'list', of: { kind: 'string' } } },
      status: { type: { kind: 'literal', value: 'ok' } },
    },
  },
  prompt: {
    kind: 'object',
    fields: {
      response: { type: { kind: 'list', of: { kind: 'string' } } },
      score: {
        type: { kind: 'union', of: [{ kind: 'number' }, { kind: 'null' }] },
        optional: true,
      },
      status: { type: { kind: 'literal', value: 'ok' } },
      cid: { type: { kind: 'string' }, optional: true },
    },
  },
  load: {
    kind: 'object',
    fields: {
      status: { type: { kind: 'literal', value: 'ok' } },
      http_status: { type: { kind: 'number' }, optional: true },
    },
  },
  tracker: {
    kind: 'object',
    fields: {
      status: { type: { kind: 'literal', value: 'ok' } },
      type: { type: { kind: 'literal', value: 'tracker' } },
      time: { type: { kind: 'string' } },
      host: { type: { kind: 'string' } },
      user_agent: { type: { kind: 'string' } },
      os: { type: { kind: 'string' } },
      device: { type: { kind: 'string' } },
      browser: { type: { kind: 'string' } },
      details: {
        type: {
          kind: 'object',
          fields: {
            brand: { type: { kind: 'string' } },
            type: { type: { kind: 'string' } },
          },
        },
      },
      referrer: { type: { kind: 'string' } },
      website: { type: { kind: 'string' } },
      infos: {
        type: {
          kind: 'object',
          fields: {
            status: {
              type: {
                kind: 'union',
                of: [
                  { kind: 'literal', value: 'ok' },
                  { kind: 'literal', value: 'ko' },
                ],
              },
            },
            status_code: { type: { kind: 'number' }, optional: true },
            city: { type: { kind: 'string' }, optional: true },
            region: { type: { kind: 'string' }, optional: true },
            country: { type: { kind: 'string' }, optional: true },
            region_code: { type: { kind: 'string' }, optional: true },
            country_iso: { type: { kind: 'string' }, optional: true },
            lookup: { type: { kind: 'string' }, optional: true },
            timezone: { type: { kind: 'string' }, optional: true },
            utc_offset: { type: { kind: 'string' }, optional: true },
            currency: { type: { kind: 'string' }, optional: true },
            asn: { type: { kind: 'string' }, optional: true },
            org: { type: { kind: 'string' }, optional: true },
            ip: { type: { kind: 'string' }, optional: true },
            network: { type: { kind: 'string' }, optional: true },
            version: { type: { kind: 'string' }, optional: true },
            hostname: { type: { kind: 'string' }, optional: true },
            loc: { type: { kind: 'string' }, optional: true },
            reason: { type: { kind: 'string' }, optional: true },
          },
        },
      },
      level: { type: { kind: 'string' }, optional: true },
      cid: { type: { kind: 'string' }, optional: true },
    },
  },
} as const;

// The contact endpoint protocol (contract/contact-protocol.md)
export const contactFields = {
  name: 'name',
  email: 'email',
  subject: 'subject',
  message: 'message',
  honeypot: 'homepage',
  ticket: 'ticket',
  consent: 'consent',
} as const;

export const contactResponseFields = {
  field: 'field',
  message: 'message',
  ticket: 'ticket',
  queued: 'queued',
} as const;

export const contactLimits = {
  nameMaxChars: 200,
  emailMaxChars: 254,
  subjectMaxChars: 200,
  messageMaxChars: 10_000,
  bodyMaxBytes: 65_536,
  apiSubjectMaxChars: 998,
} as const;

export const contactDefaults = {
  minFillMs: 3000,
  ticketMaxAgeS: 86_400,
  ticketMaxSkewMs: 5000,
  rateLimitCount: 5,
  rateLimitWindowS: 60,
} as const;

export const contactTicket = {
  hmacPrefix: 'sitebeam-contact-ticket:',
  hash: 'sha256',
} as const;

export const emailAddressPattern = /^(?!.*[@.](?:[Aa][Rr][Pp][Aa]|[Ii][Nn][Vv][Aa][Ll][Ii][Dd]|[Ll][Oo][Cc][Aa][Ll](?:[Hh][Oo][Ss][Tt])?|[Oo][Nn][Ii][Oo][Nn]|[Tt][Ee][Ss][Tt])$)(?=[^@]{1,64}@)(?=.{3,254}$)[A-Za-z0-9!#$%&'*+\/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+\/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9](?:[A-Za-z0-9-]{0,57}[A-Za-z0-9])?)$/u;

export const singleLineForbiddenPattern = /[\x00-\x1F\x7F-\x9F\u{2028}\u{2029}]/u;

export const multiLineForbiddenPattern = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\u{2028}\u{2029}]/u;

/** The optional consent checkbox the owner turns on (contact-protocol.md, Consent), shared by the chat protocol: a JSON true, or one of acceptedTexts after trimming, compared without case, gives consent; anything else (absent, false, empty, no) does not. The mail to the owner holds mailLine followed by the owner's label. */
export const consentAcceptedTexts = ['yes', 'on', 'true', '1'] as const;

export const CONSENT_MAIL_LINE = 'The visitor agreed: ';

export const CONTACT_ALLOWED_METHODS = 'GET, POST, OPTIONS';

/** The query parameter a native (no JavaScript) post comes back with after success. */
export const SENT_QUERY_PARAM = 'sent';

export const contactErrorCodes = {
  invalidField: 'invalid_field',
  invalidRequest: 'invalid_request',
  spamSuspected: 'spam_suspected',
  forbiddenOrigin: 'forbidden_origin',
  methodNotAllowed: 'method_not_allowed',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  rateLimited: 'rate_limited',
  upstreamFailed: 'upstream_failed',
  notConfigured: 'not_configured',
} as const;

export type ContactErrorCode = (typeof contactErrorCodes)[keyof typeof contactErrorCodes];

/** The HTTP status that goes with each code. */
export const contactErrorStatus: Record<ContactErrorCode, number> = {
  invalid_field: 400,
  invalid_request: 400,
  spam_suspected: 400,
  forbidden_origin: 403,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  upstream_failed: 502,
  not_configured: 503,
};

export interface ContactSuccess {
  status: 'ok';
  message: string;
  queued?: true;
}

export interface ContactTicket {
  status: 'ok';
  ticket: string;
}

export interface ContactFailure {
  status: 'ko';
  error: string;
  i18n_code: ContactErrorCode;
  field?: string;
}

// The chat endpoint protocol (contract/chat-protocol.md)
export const chatFields = {
  message: 'message',
  model: 'model',
  honeypot: 'homepage',
  consent: 'consent',
} as const;

export const chatResponseFields = {
  models: 'models',
  model: 'model',
  response: 'response',
  score: 'score',
  field: 'field',
} as const;

export const chatLimits = {
  messageMaxChars: 4000,
  bodyMaxBytes: 65_536,
} as const;

export const chatDefaults = {
  rateLimitCount: 10,
  rateLimitWindowS: 60,
  dailyLimit: 500,
} as const;

/** Retries while a model warms up, and the longest Retry-After honoured. */
export const chatWidget = {
  loadingRetries: 5,
  retryAfterMaxS: 30,
} as const;

/** Models whose score is always 0: endpoints leave `score` out. */
export const unscoredModels = ['gpt2', 'mock', 'log'] as const;

export const CHAT_ALLOWED_METHODS = 'GET, POST, OPTIONS';

export const chatErrorCodes = {
  invalidField: 'invalid_field',
  spamSuspected: 'spam_suspected',
  forbiddenOrigin: 'forbidden_origin',
  methodNotAllowed: 'method_not_allowed',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  rateLimited: 'rate_limited',
  dailyLimitReached: 'daily_limit_reached',
  upstreamFailed: 'upstream_failed',
  modelLoading: 'model_loading',
  notConfigured: 'not_configured',
} as const;

export type ChatErrorCode = (typeof chatErrorCodes)[keyof typeof chatErrorCodes];

/** The HTTP status that goes with each code. */
export const chatErrorStatus: Record<ChatErrorCode, number> = {
  invalid_field: 400,
  spam_suspected: 400,
  forbidden_origin: 403,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  daily_limit_reached: 429,
  upstream_failed: 502,
  model_loading: 503,
  not_configured: 503,
};

export interface ChatModels {
  status: 'ok';
  models: string[];
}

export interface ChatAnswer {
  status: 'ok';
  model: string;
  response: string[];
  score?: number;
}

export interface ChatFailure {
  status: 'ko';
  error: string;
  i18n_code: ChatErrorCode;
  field?: string;
}
