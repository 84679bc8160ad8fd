// The chat endpoint protocol (contract/chat-protocol.md) on the TypeScript side: the widget and
// the relay import these names, limits and codes; nothing restates them.

export const chatFields = {
  message: 'message',
  model: 'model',
  honeypot: 'homepage',
} as const;

export const chatLimits = {
  messageChars: 4_000,
  bodyBytes: 64 * 1024,
  rateLimitCount: 10,
  rateLimitWindowS: 60,
  /** The widget's automatic retries while a model warms up, and the longest wait it honours. */
  loadingRetries: 5,
  retryAfterMaxS: 30,
} as const;

export const chatErrorCodes = {
  invalidField: 'invalid_field',
  spamSuspected: 'spam_suspected',
  forbiddenOrigin: 'forbidden_origin',
  methodNotAllowed: 'method_not_allowed',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  rateLimited: 'rate_limited',
  modelLoading: 'model_loading',
  notConfigured: 'not_configured',
  upstreamFailed: 'upstream_failed',
} as const;

export type ChatErrorCode = (typeof chatErrorCodes)[keyof typeof chatErrorCodes];

export const chatErrorStatus: Record<ChatErrorCode, number> = {
  invalid_field: 400,
  spam_suspected: 400,
  forbidden_origin: 403,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  model_loading: 503,
  not_configured: 503,
  upstream_failed: 502,
};

/** What the multi-line `message` may not hold: C0 and C1 controls but TAB, LF and CR, DEL, U+2028, U+2029. */
export const MULTI_LINE_FORBIDDEN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it refuses
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u2028\u2029]/;

/** Models of the service whose `score` is always 0: endpoints leave `score` out of their answers. */
export const unscoredModels: readonly string[] = ['gpt2', 'mock', 'log'];

/** `GET {action}`: the models a visitor may pick, the first being the default. */
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
