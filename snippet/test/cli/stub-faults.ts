// Makes the stub's next matching call fail (or wait), through its `/__stub/faults` surface: only
// the call that carries what the test's own call carries, so no other call can take the fault.
import { callStub, type RunningStub } from '../../../tests/support/stub-server.ts';

export interface Fault {
  method: 'GET' | 'POST';
  path_prefix: string;
  status?: number;
  i18n_code?: string;
  delay_ms?: number;
}

/** Text in the JSON body of the test's own call, or a header only it sends (its own token). */
export type FaultMatch = { body_contains: string } | { headers: Record<string, string> };

export function faultOnce(stub: RunningStub, match: FaultMatch, fault: Fault): Promise<unknown> {
  return callStub(stub, '/__stub/faults', 'PUT', { faults: [{ ...fault, ...match, times: 1 }] });
}

/** The next prompt of `message` answers 429 rate_limited with `Retry-After: 1`. */
export function rateLimitNextPrompt(stub: RunningStub, message: string): Promise<unknown> {
  return faultOnce(
    stub,
    { body_contains: JSON.stringify({ message }).slice(1, -1) },
    { method: 'POST', path_prefix: '/v1/ai/prompt', status: 429, i18n_code: 'rate_limited' },
  );
}

/** The next model list asked for with `token` meets `fault`: a GET has no body, its token is the match. */
export function faultNextModelList(
  stub: RunningStub,
  token: string,
  fault: Omit<Fault, 'method' | 'path_prefix'>,
): Promise<unknown> {
  return faultOnce(
    stub,
    { headers: { 'x-auth-token': token } },
    { method: 'GET', path_prefix: '/v1/ai/models', ...fault },
  );
}
