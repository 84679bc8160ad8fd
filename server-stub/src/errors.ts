// The contract's one error shape, built in one place.
import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyReply } from 'fastify';
import { type ErrorBody, type ErrorCode, errorCodes, errorStatus } from 'sitebeam/client';

/** Thrown by handlers and hooks; the app's error handler turns it into the contract's error JSON. */
export class ContractError extends Error {
  override readonly name = 'ContractError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;

  /** `status` overrides the code's usual one (the load operation answers model_not_found with 404). */
  constructor(
    code: ErrorCode,
    message: string,
    options: { headers?: Record<string, string>; status?: number } = {},
  ) {
    super(message);
    this.code = code;
    this.status = options.status ?? errorStatus[code];
    this.headers = options.headers ?? {};
  }
}

function errorBody(code: string, message: string): ErrorBody {
  return { status: 'ko', error: message, i18n_code: code, cid: randomUUID() };
}

export function sendError(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
) {
  return reply
    .code(status)
    .headers(headers)
    .type('application/json; charset=utf-8')
    .send(errorBody(code, message));
}

type ValidationIssue = NonNullable<FastifyError['validation']>[number];

/** "to: must be one email address" — the field first, so a client can show it beside the field. */
function describeValidationIssue(issue: ValidationIssue): string {
  const params = issue.params as Record<string, unknown>;
  const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (issue.keyword === 'required') {
    const field = [path, String(params.missingProperty)].filter(Boolean).join('.');
    return `${field}: is required`;
  }
  const field = path || 'body';
  if (issue.keyword === 'format' && params.format === 'mailbox')
    return `${field}: must be one email address`;
  if (issue.keyword === 'pattern' && params.pattern === '^[^\\r\\n]*$') {
    return `${field}: must not contain a line break`;
  }
  return `${field}: ${issue.message ?? 'is not valid'}`;
}

/** Fastify's own errors (bad JSON, body too large, wrong media type…) in the contract's terms. */
export function contractErrorFor(error: FastifyError): {
  status: number;
  code: string;
  message: string;
} {
  if (error instanceof ContractError) {
    return { status: error.status, code: error.code, message: error.message };
  }
  if (error.validation && error.validation.length > 0) {
    const message = error.validation.map(describeValidationIssue).join('; ');
    return { status: 400, code: errorCodes.invalidPayload, message };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        code: errorCodes.payloadTooLarge,
        message: 'body: over the 16 MiB limit',
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return {
        status: 415,
        code: errorCodes.unsupportedMediaType,
        message: 'body: send it as Content-Type: application/json',
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, code: errorCodes.invalidPayload, message: 'body: is empty' };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, code: errorCodes.invalidPayload, message: 'body: is not valid JSON' };
    case 'FST_ERR_BAD_URL':
      return {
        status: 400,
        code: errorCodes.invalidPayload,
        message: 'url: is not validly encoded',
      };
  }
  if (error instanceof SyntaxError || /JSON|prototype/i.test(error.message)) {
    return { status: 400, code: errorCodes.invalidPayload, message: `body: ${error.message}` };
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return { status, code: errorCodes.invalidPayload, message: error.message };
  }
  return { status: 500, code: 'internal_error', message: 'the stub failed; see its log' };
}
