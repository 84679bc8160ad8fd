import type { ErrorBody } from './contract.js';

/** Raised for every failed call: an error answer of the API (status ≥ 400) or no answer at all (status 0). */
export class SitebeamApiError extends Error {
  override readonly name = 'SitebeamApiError';
  readonly status: number;
  /** The contract's `i18n_code`, or `network_error` / `timeout` / `invalid_response` / `redirect_refused` when no usable answer came. */
  readonly code: string;
  readonly cid: string | undefined;
  /** Seconds from a `Retry-After` header, when the API sent one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(options: {
    status: number;
    code: string;
    message: string;
    cid?: string | undefined;
    retryAfterSeconds?: number | undefined;
    cause?: unknown;
  }) {
    super(options.message, { cause: options.cause });
    this.status = options.status;
    this.code = options.code;
    this.cid = options.cid;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  static fromErrorBody(status: number, body: Partial<ErrorBody>, retryAfter: string | null) {
    const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
    return new SitebeamApiError({
      status,
      code: typeof body.i18n_code === 'string' ? body.i18n_code : `http_${status}`,
      message: typeof body.error === 'string' ? body.error : `HTTP ${status}`,
      cid: typeof body.cid === 'string' ? body.cid : undefined,
      retryAfterSeconds: Number.isFinite(seconds) ? seconds : undefined,
    });
  }
}
