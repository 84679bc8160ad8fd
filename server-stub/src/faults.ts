// Forced answers for testing clients (the stub's `/__stub/faults`, like Prism's `Prefer: code=`).
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

  /** The rule that applies to this request, counted as used; undefined when none does. */
  take(method: string, path: string): (FaultRule & { i18n_code?: string }) | undefined {
    if (this.rules.length === 0 || path.startsWith('/__stub/')) return undefined;
    const rule = this.rules.find(
      (candidate) =>
        (candidate.method === undefined || candidate.method === method) &&
        path.startsWith(candidate.path_prefix),
    );
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
