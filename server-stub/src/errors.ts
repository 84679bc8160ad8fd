// The service's error shapes, built in one place: the contract's error body (bare, without status
// and cid, where the service's guards answer so) and FastAPI's 422 validation list.
import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyReply } from 'fastify';
import {
  type ErrorBody,
  type ErrorCode,
  errorCodes,
  errorStatus,
  upstream,
  type ValidationFailure,
  type ValidationIssue,
} from 'sitebeam/client';

/** Thrown by handlers and hooks; the app's error handler turns it into the contract's error JSON. */
export class ContractError extends Error {
  override readonly name = 'ContractError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;
  /** Answered without `status` and `cid`, as the service's authentication guards answer. */
  readonly bare: boolean;

  /** `status` overrides the code's usual one. */
  constructor(
    code: ErrorCode,
    message: string,
    options: { headers?: Record<string, string>; status?: number; bare?: boolean } = {},
  ) {
    super(message);
    this.code = code;
    this.status = options.status ?? errorStatus[code];
    this.headers = options.headers ?? {};
    this.bare = options.bare ?? false;
  }
}

function errorBody(code: string, message: string, cid: string, bare: boolean): ErrorBody {
  return bare
    ? { error: message, i18n_code: code }
    : { status: 'ko', error: message, i18n_code: code, cid };
}

export function sendError(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
  bare = false,
) {
  const cid = randomUUID();
  return reply
    .code(status)
    .headers({ ...headers, [upstream.cidHeader]: cid })
    .type('application/json; charset=utf-8')
    .send(errorBody(code, message, cid, bare));
}

/** FastAPI's answer to a body its schema refuses: 422 and one entry per problem. */
export class ValidationError extends Error {
  override readonly name = 'ValidationError';
  constructor(readonly detail: ValidationIssue[]) {
    super(detail.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; '));
  }
}

export function sendValidationFailure(reply: FastifyReply, detail: ValidationIssue[]) {
  const body: ValidationFailure = { detail };
  return reply
    .code(upstream.validationStatus)
    .header(upstream.cidHeader, randomUUID())
    .type('application/json; charset=utf-8')
    .send(body);
}

type SchemaIssue = NonNullable<FastifyError['validation']>[number];

/** An Ajv issue in pydantic 1's words, which the service's clients read. */
function asValidationIssue(issue: SchemaIssue): ValidationIssue {
  const params = issue.params as Record<string, unknown>;
  const path = issue.instancePath.split('/').filter(Boolean);
  if (issue.keyword === 'required') {
    return {
      loc: ['body', ...path, String(params.missingProperty)],
      msg: 'field required',
      type: 'value_error.missing',
    };
  }
  const loc = ['body', ...path];
  if (issue.keyword === 'format' && params.format === 'mailbox') {
    return { loc, msg: 'value is not a valid email address', type: 'value_error.email' };
  }
  if (issue.keyword === 'pattern' && params.pattern === '^[^\\r\\n]*$') {
    return { loc, msg: 'must not contain a line break', type: 'value_error.str.regex' };
  }
  if (issue.keyword === 'type') {
    return { loc, msg: `value is not a valid ${params.type}`, type: `type_error.${params.type}` };
  }
  return { loc, msg: issue.message ?? 'is not valid', type: `value_error.${issue.keyword}` };
}

/** A 422 validation list for Fastify's schema and JSON errors, else undefined. */
export function validationIssuesFor(error: FastifyError): ValidationIssue[] | undefined {
  if (error instanceof ValidationError) return error.detail;
  if (error.validation && error.validation.length > 0) {
    return error.validation.map(asValidationIssue);
  }
  const unreadable =
    error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    error instanceof SyntaxError ||
    /JSON|prototype/i.test(error.message);
  if (unreadable) {
    return [{ loc: ['body'], msg: 'is not valid JSON', type: 'value_error.jsondecode' }];
  }
  return undefined;
}

/** Fastify's own errors (body too large, wrong media type…) in the contract's terms. */
export function contractErrorFor(error: FastifyError): {
  status: number;
  code: string;
  message: string;
} {
  if (error instanceof ContractError) {
    return { status: error.status, code: error.code, message: error.message };
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
    case 'FST_ERR_BAD_URL':
      return {
        status: 400,
        code: errorCodes.invalidPayload,
        message: 'url: is not validly encoded',
      };
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return { status, code: errorCodes.invalidPayload, message: error.message };
  }
  return { status: 500, code: 'internal_error', message: 'the stub failed; see its log' };
}
