import { contactErrorCodes, type ErrorBody, type ValidationIssue } from './contract.js';

/** The first problem of a 422 validation answer (FastAPI: `detail: [{loc, msg, type}]`). */
function firstIssue(body: Record<string, unknown>): ValidationIssue | undefined {
  const [issue] = Array.isArray(body.detail) ? body.detail : [];
  const valid =
    typeof issue === 'object' &&
    issue !== null &&
    Array.isArray(issue.loc) &&
    typeof issue.msg === 'string';
  return valid ? (issue as ValidationIssue) : undefined;
}

/** `to`, `settings.top_k`: the issue's location without FastAPI's leading `body`. */
function fieldOf(issue: ValidationIssue): string {
  const path = issue.loc[0] === 'body' ? issue.loc.slice(1) : issue.loc;
  return path.map(String).join('.') || 'body';
}

/** Raised for every failed call: an error answer of the API (status ≥ 400) or no answer at all (status 0). */
export class SitebeamApiError extends Error {
  override readonly name = 'SitebeamApiError';
  readonly status: number;
  /** The contract's `i18n_code`, or `network_error` / `timeout` / `invalid_response` / `redirect_refused` when no usable answer came. */
  readonly code: string;
  readonly cid: string | undefined;
  /** Seconds from a `Retry-After` header, when the API sent one. */
  readonly retryAfterSeconds: number | undefined;
  /** The request field the instance refused (a 422 validation answer), e.g. `to`. */
  readonly field: string | undefined;
  /**
   * The instance's own words, as it sent them: the reason of a refused field (`value is not a
   * valid email address`), or the `error` / `detail` text of an error answer; undefined when no
   * usable answer came. `message` adds the field before it.
   */
  readonly reason: string | undefined;

  constructor(options: {
    status: number;
    code: string;
    message: string;
    cid?: string | undefined;
    retryAfterSeconds?: number | undefined;
    field?: string | undefined;
    reason?: string | undefined;
    cause?: unknown;
  }) {
    super(options.message, { cause: options.cause });
    this.status = options.status;
    this.code = options.code;
    this.cid = options.cid;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.field = options.field;
    this.reason = options.reason;
  }

  /**
   * The error an answer carries: the contract's error body, or a validation list, which becomes
   * `invalid_field` with a message naming the field and the instance's reason.
   */
  static fromErrorBody(
    status: number,
    body: Partial<ErrorBody> & Record<string, unknown>,
    retryAfter: string | null,
    cid?: string | null,
  ) {
    const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
    const issue = firstIssue(body);
    if (issue) {
      const field = fieldOf(issue);
      return new SitebeamApiError({
        status,
        code: contactErrorCodes.invalidField,
        message: `${field}: ${issue.msg}`,
        field,
        reason: issue.msg,
        cid: cid ?? undefined,
      });
    }
    const reason =
      typeof body.error === 'string'
        ? body.error
        : typeof body.detail === 'string'
          ? body.detail
          : undefined;
    return new SitebeamApiError({
      status,
      code: typeof body.i18n_code === 'string' ? body.i18n_code : `http_${status}`,
      message: reason ?? `HTTP ${status}`,
      reason,
      cid: typeof body.cid === 'string' ? body.cid : (cid ?? undefined),
      retryAfterSeconds: Number.isFinite(seconds) ? seconds : undefined,
    });
  }
}
