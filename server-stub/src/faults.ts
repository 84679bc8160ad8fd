// Forced answers for testing clients (the stub's `/__stub/faults`, like Prism's `Prefer: code=`).
// A rule can match the one request a test means, by a header or by text in the body (as WireMock's
// request matching does), so a stray request of another test can neither take the fault nor see it.
import { type ErrorCode, errorStatus } from 'sitebeam/client';

export interface FaultRule {
  method?: string;
  path_prefix: string;
  /** Answer with this status (and the contract's error body); omitted = only delay, then answer normally. */
  status?: number;
  delay_ms?: number;
  /** How many requests it applies to; omitted = until cleared. */
  times?: number;
  i18n_code?: string;
  /** Retry-After of a 429 or 503, in seconds (default 1). */
  retry_after?: number;
  /** Only requests carrying each of these headers with exactly this value (names in any case). */
  headers?: Record<string, string>;
  /** Only requests whose body, as JSON text, contains this text. */
  body_contains?: string;
}

export interface FaultRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed body; undefined before the body is read, when only rules without body_contains apply. */
  body?: unknown;
}

export const faultRulesSchema = {
  type: 'object',
  required: ['faults'],
  properties: {
    faults: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        required: ['path_prefix'],
        properties: {
          method: { type: 'string', pattern: '^[A-Za-z]+$' },
          path_prefix: { type: 'string', pattern: '^/' },
          status: { type: 'integer', minimum: 100, maximum: 599 },
          delay_ms: { type: 'integer', minimum: 0, maximum: 120_000 },
          times: { type: 'integer', minimum: 1 },
          i18n_code: { type: 'string', minLength: 1, maxLength: 100 },
          retry_after: { type: 'integer', minimum: 0, maximum: 86_400 },
          headers: {
            type: 'object',
            maxProperties: 20,
            additionalProperties: { type: 'string', maxLength: 1000 },
          },
          body_contains: { type: 'string', minLength: 1, maxLength: 10_000 },
        },
      },
    },
  },
} as const;

const codeForStatus = (status: number): string =>
  (Object.entries(errorStatus) as Array<[ErrorCode, number]>).find(([, s]) => s === status)?.[0] ??
  (status >= 500 ? 'injected_server_error' : 'injected_fault');

export class FaultInjector {
  private rules: FaultRule[] = [];

  set(rules: FaultRule[]) {
    this.rules = rules.map((rule) => ({ ...rule, method: rule.method?.toUpperCase() }));
  }

  list(): FaultRule[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  clear() {
    this.rules = [];
  }

  /**
   * The rule that applies to this request, counted as used; undefined when none does. Rules with
   * body_contains are taken once the body is read (request.body set), the others before.
   */
  take(request: FaultRequest): (FaultRule & { i18n_code?: string }) | undefined {
    const { method, path } = request;
    if (this.rules.length === 0 || path.startsWith('/__stub/')) return undefined;
    const bodyRead = 'body' in request;
    let bodyText: string | undefined;
    const rule = this.rules.find((candidate) => {
      if (candidate.method !== undefined && candidate.method !== method) return false;
      if (!path.startsWith(candidate.path_prefix)) return false;
      if ((candidate.body_contains !== undefined) !== bodyRead) return false;
      if (!headersMatch(candidate.headers, request.headers)) return false;
      if (candidate.body_contains === undefined) return true;
      bodyText ??= bodyAsText(request.body);
      return bodyText.includes(candidate.body_contains);
    });
    if (!rule) return undefined;
    if (rule.times !== undefined) {
      rule.times -= 1;
      if (rule.times <= 0) this.rules = this.rules.filter((candidate) => candidate !== rule);
    }
    return {
      ...rule,
      ...(rule.status === undefined
        ? {}
        : { i18n_code: rule.i18n_code ?? codeForStatus(rule.status) }),
    };
  }
}

function headersMatch(
  wanted: Record<string, string> | undefined,
  sent: FaultRequest['headers'],
): boolean {
  if (!wanted) return true;
  return Object.entries(wanted).every(([name, value]) => {
    const actual = sent[name.toLowerCase()];
    return Array.isArray(actual) ? actual.includes(value) : actual === value;
  });
}

function bodyAsText(body: unknown): string {
  if (body === undefined || body === null) return '';
  return typeof body === 'string' ? body : JSON.stringify(body);
}
