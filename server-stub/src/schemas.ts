// JSON Schemas of the /v1 operations: Fastify validates requests (and serializes responses) with
// them, and the OpenAPI document is generated from them. Limits come from the shared contract.
import {
  booleanSettings,
  geoInfoFields,
  integerSettings,
  limits,
  positiveNumberSettings,
} from 'sitebeam/client';

const NO_LINE_BREAK = '^[^\\r\\n]*$';

const mailbox = { type: 'string', format: 'mailbox', maxLength: 320 } as const;

export const attachmentSchema = {
  $id: 'Attachment',
  type: 'object',
  required: ['mime_type', 'file_name', 'b64'],
  properties: {
    mime_type: {
      type: 'string',
      pattern: '^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$',
      maxLength: 255,
      description: 'Media type, `type/subtype`.',
    },
    file_name: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: '^[^/\\\\\\u0000-\\u001f\\u007f]+$',
      description: 'File name shown to the recipient: no `/`, `\\` or control characters.',
    },
    b64: {
      type: 'string',
      description: `File content in base64; at most ${limits.attachmentBytes} bytes once decoded.`,
    },
  },
} as const;

export const emailMessageSchema = {
  $id: 'EmailMessage',
  type: 'object',
  required: ['to', 'subject'],
  properties: {
    to: { ...mailbox, description: 'One recipient address.' },
    subject: {
      type: 'string',
      minLength: 1,
      maxLength: limits.subjectChars,
      pattern: NO_LINE_BREAK,
    },
    from: { ...mailbox, description: "Sender; defaults to the account's address." },
    bcc: { ...mailbox, description: 'One blind-copy address.' },
    content: { type: 'string', description: 'HTML body; may be empty.' },
    attachment: attachmentSchema,
    cc: { ...mailbox, description: 'Extension: one copy address.' },
    replyto: { ...mailbox, description: 'Extension: one reply-to address.' },
    from_name: {
      type: 'string',
      maxLength: 200,
      pattern: NO_LINE_BREAK,
      description: 'Extension: sender display name.',
    },
  },
} as const;

const settingsProperties = Object.fromEntries([
  ...integerSettings.map((name) => [name, { type: 'integer', minimum: 1 }]),
  ...positiveNumberSettings.map((name) => [name, { type: 'number', exclusiveMinimum: 0 }]),
  ...booleanSettings.map((name) => [name, { type: 'boolean' }]),
]);

export const promptRequestSchema = {
  $id: 'PromptRequest',
  type: 'object',
  required: ['model', 'message'],
  properties: {
    model: { type: 'string', minLength: 1, maxLength: 100 },
    message: { type: 'string', maxLength: limits.promptMessageChars },
    settings: {
      type: 'object',
      properties: settingsProperties,
      description: 'Model settings; unknown keys are ignored, `{}` is accepted.',
    },
  },
} as const;

export const errorBodySchema = {
  $id: 'Error',
  type: 'object',
  description: 'The authentication guards leave out status and cid (the cid is in x-cwcloud-cid).',
  required: ['error', 'i18n_code'],
  properties: {
    status: { type: 'string', const: 'ko' },
    error: { type: 'string' },
    i18n_code: { type: 'string' },
    cid: { type: 'string', format: 'uuid' },
  },
} as const;

export const validationFailureSchema = {
  $id: 'ValidationFailure',
  type: 'object',
  required: ['detail'],
  description: "FastAPI's answer to a body its schema refuses (status 422).",
  properties: {
    detail: {
      type: 'array',
      items: {
        type: 'object',
        required: ['loc', 'msg', 'type'],
        properties: {
          loc: { type: 'array', items: { type: ['string', 'integer'] } },
          msg: { type: 'string' },
          type: { type: 'string' },
        },
      },
    },
  },
} as const;

export const internalErrorSchema = {
  $id: 'InternalError',
  type: 'object',
  required: ['detail'],
  description: "The service's catch-all answer (status 500), e.g. for a model it does not know.",
  properties: { detail: { type: 'string' } },
} as const;

export const emailSentSchema = {
  $id: 'EmailSent',
  type: 'object',
  required: ['status'],
  description: 'As the service answers: the adapter that sent it and its answer, no id.',
  properties: {
    status: { type: 'string', const: 'ok' },
    adapter: { type: 'string' },
    response: { type: 'string' },
  },
} as const;

export const modelListSchema = {
  $id: 'ModelList',
  type: 'object',
  required: ['models', 'status'],
  properties: {
    models: { type: 'array', items: { type: 'string' } },
    status: { type: 'string', const: 'ok' },
  },
} as const;

export const promptResponseSchema = {
  $id: 'PromptResponse',
  type: 'object',
  required: ['response', 'score', 'status', 'cid'],
  properties: {
    response: { type: 'array', items: { type: 'string' } },
    score: { type: ['number', 'null'], description: 'null for models without a score.' },
    status: { type: 'string', const: 'ok' },
    cid: { type: 'string', format: 'uuid' },
  },
} as const;

export const modelLoadSchema = {
  $id: 'ModelLoad',
  type: 'object',
  required: ['status', 'http_status'],
  description: 'Loading started in the background; the service never says when it is ready.',
  properties: {
    status: { type: 'string', const: 'ok' },
    http_status: { type: 'integer', const: 202 },
  },
} as const;

const text = { type: 'string' } as const;

export const geoInfosSchema = {
  $id: 'GeoInfos',
  type: 'object',
  required: geoInfoFields,
  properties: {
    status: { type: 'string', enum: ['ok', 'ko'] },
    status_code: { type: 'integer' },
    city: text,
    region: text,
    country: text,
    region_code: text,
    country_iso: text,
    lookup: text,
    timezone: text,
    utc_offset: text,
    currency: text,
    asn: text,
    org: text,
    ip: text,
    network: text,
    version: text,
    hostname: text,
    loc: text,
    reason: text,
  },
} as const;

export const trackerRecordSchema = {
  $id: 'TrackerRecord',
  type: 'object',
  required: [
    'status',
    'type',
    'time',
    'host',
    'user_agent',
    'os',
    'device',
    'browser',
    'details',
    'referrer',
    'website',
    'infos',
    'level',
    'cid',
  ],
  properties: {
    status: { type: 'string', const: 'ok' },
    type: { type: 'string', const: 'tracker' },
    time: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}$' },
    host: text,
    user_agent: text,
    os: text,
    device: text,
    browser: text,
    details: {
      type: 'object',
      required: ['brand', 'type'],
      properties: { brand: text, type: text },
    },
    referrer: text,
    website: text,
    infos: geoInfosSchema,
    level: text,
    cid: { type: 'string', format: 'uuid' },
  },
} as const;
