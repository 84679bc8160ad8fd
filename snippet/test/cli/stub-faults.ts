// Makes the stub's next matching call fail (or wait), through its `/__stub/faults` surface.
import { callStub, type RunningStub } from '../../../tests/support/stub-server.ts';

export interface Fault {
  method: 'GET' | 'POST';
  path_prefix: string;
  status?: number;
  i18n_code?: string;
  delay_ms?: number;
}

export function faultOnce(stub: RunningStub, fault: Fault): Promise<unknown> {
  return callStub(stub, '/__stub/faults', 'PUT', { faults: [{ ...fault, times: 1 }] });
}

/** The next prompt answers 429 rate_limited with `Retry-After: 1`. */
export function rateLimitNextPrompt(stub: RunningStub): Promise<unknown> {
  return faultOnce(stub, {
    method: 'POST',
    path_prefix: '/v1/ai/prompt',
    status: 429,
    i18n_code: 'rate_limited',
  });
}
