// The Sitebeam HTTP contract on the TypeScript side: paths, field names, limits and error codes.
// The stub, the relay, the widget and the tests all import these; nothing restates them.

export const paths = {
  email: '/v1/email',
  models: '/v1/ai/models',
  prompt: '/v1/ai/prompt',
  loadModel: (model: string) => `/v1/ai/model/${encodeURIComponent(model)}`,
  trackerJson: (website: string) => `/v1/tracker/json/${encodeURIComponent(website)}`,
  trackerImg: (website: string) => `/v1/tracker/img/${encodeURIComponent(website)}`,
} as const;

export const AUTH_HEADER = 'X-Auth-Token';

export const limits = {
  bodyBytes: 16 * 1024 * 1024,
  attachmentBytes: 10 * 1024 * 1024,
  subjectChars: 998,
  promptMessageChars: 32_768,
  websiteChars: 255,
} as const;

export const errorCodes = {
  invalidPayload: 'invalid_payload',
  invalidWebsite: 'invalid_website',
  modelNotFound: 'model_not_found',
  authFailed: 'auth_failed',
  notEmailApi: 'not_emailapi',
  notAiApi: 'not_aiapi',
  notFound: 'not_found',
  disabledEmailService: 'disabled_email_service',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  rateLimited: 'rate_limited',
  modelLoading: 'model_loading',
} as const;

export type ErrorCode = (typeof errorCodes)[keyof typeof errorCodes];

/** The HTTP status that goes with each error code. */
export const errorStatus: Record<ErrorCode, number> = {
  invalid_payload: 400,
  invalid_website: 400,
  model_not_found: 400,
  auth_failed: 401,
  not_emailapi: 403,
  not_aiapi: 403,
  not_found: 404,
  disabled_email_service: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  model_loading: 503,
};

export interface ErrorBody {
  status: 'ko';
  error: string;
  i18n_code: ErrorCode | string;
  cid: string;
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
  /** Extensions some deployed instances accept; the stub records them. */
  cc?: string;
  replyto?: string;
  from_name?: string;
}

export interface EmailSent {
  status: 'ok';
  id: string;
}

export const knownModels = [
  'gpt2',
  'nlptownsentiment',
  'nltksentiment',
  'textblobsentiment',
  'robertaemotion',
  'mock',
  'log',
] as const;

export interface ModelList {
  models: string[];
  status: 'ok';
}

export const integerSettings = [
  'max_length',
  'num_return_sequences',
  'no_repeat_ngram_size',
  'num_beams',
  'top_k',
] as const;
export const positiveNumberSettings = ['top_p', 'temperature'] as const;
export const booleanSettings = ['early_stopping', 'do_sample', 'skip_special_tokens'] as const;

export interface PromptSettings {
  max_length?: number;
  num_return_sequences?: number;
  no_repeat_ngram_size?: number;
  num_beams?: number;
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
  score: number;
  status: 'ok';
}

export type ModelState = 'loading' | 'ready';

export interface ModelLoadResponse {
  status: 'ok';
  model: string;
  state: ModelState;
}

export const UNKNOWN = 'unknown';
export const NO_REFERRER = 'None';

export const osNames = [
  'windows',
  'macos',
  'ios',
  'android',
  'linux',
  'chromeos',
  UNKNOWN,
] as const;
export const deviceClasses = [
  'computer',
  'mobile',
  'tablet',
  'smarttv',
  'console',
  'wearable',
  'bot',
  UNKNOWN,
] as const;

export type OsName = (typeof osNames)[number];
export type DeviceClass = (typeof deviceClasses)[number];

export interface GeoInfos {
  status: 'ok' | 'ko';
  status_code: number;
  city: string;
  region: string;
  country: string;
  region_code: string;
  country_iso: string;
  lookup: string;
  timezone: string;
  utc_offset: string;
  currency: string;
  asn: string;
  org: string;
  ip: string;
  network: string;
  version: 'IPv4' | 'IPv6' | string;
  hostname: string;
  loc: string;
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
  level: string;
  cid: string;
}
