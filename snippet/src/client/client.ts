import { type AnswerName, answerProblem } from './answer-check.js';
import { baseUrlProblem, connectOrigin } from './base-url.js';
import { readCappedBody } from './capped-body.js';
import {
  AUTH_HEADER,
  type EmailMessage,
  type EmailSent,
  errorCodes,
  limits,
  type ModelList,
  type ModelLoadResponse,
  type PromptRequest,
  type PromptResponse,
  paths,
  type TrackerRecord,
  upstream,
} from './contract.js';
import { SitebeamApiError } from './errors.js';

export interface ClientOptions {
  /**
   * The instance's base URL: https, or http for loopback only; no path, query or user info.
   * A trailing slash is tolerated. Anything else throws a TypeError naming the problem.
   */
  baseUrl: string;
  /** The API token, for email and AI calls. Server-side only: never give it to a browser. */
  token?: string;
  /** Milliseconds before a call is abandoned (default 15,000). */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Called once per call with the answer as read (undefined when none came), e.g. to print it. */
  onAnswer?: (answer: RawAnswer | undefined) => void;
}

/** An HTTP answer as it came; `text` is empty when the body was over `limits.answerBytes`. */
export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
}

export interface SitebeamClient {
  sendEmail(message: EmailMessage): Promise<EmailSent>;
  listModels(): Promise<ModelList>;
  prompt(request: PromptRequest): Promise<PromptResponse>;
  loadModel(model: string): Promise<ModelLoadResponse>;
  track(website: string, headers?: Record<string, string>): Promise<TrackerRecord>;
}

type Json = Record<string, unknown>;

export function createClient(options: ClientOptions): SitebeamClient {
  const problem = baseUrlProblem(options.baseUrl);
  if (problem) throw new TypeError(`baseUrl ${problem}`);
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const origin = connectOrigin(baseUrl);
  const timeoutMs = options.timeoutMs ?? 15_000;
  const fetchImpl = options.fetch ?? globalThis.fetch;

  async function call<T>(
    answerName: AnswerName,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
    if (options.token !== undefined) headers[AUTH_HEADER] = options.token;
    if (body !== undefined) headers['content-type'] = 'application/json';

    options.onAnswer?.(undefined);
    let response: Response;
    try {
      response = await fetchImpl(origin + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        // A redirect would carry the token and the message to wherever it points.
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      const timedOut = cause instanceof Error && cause.name === 'TimeoutError';
      throw new SitebeamApiError({
        status: 0,
        code: timedOut ? 'timeout' : 'network_error',
        message: timedOut
          ? `${baseUrl} did not answer within ${timeoutMs} ms`
          : `${baseUrl} could not be reached`,
        cause,
      });
    }

    if (isRedirect(response)) {
      const location = response.headers.get('location') ?? 'an undisclosed location';
      throw new SitebeamApiError({
        status: response.status,
        code: 'redirect_refused',
        message: `${method} ${path} answered ${response.status} redirecting to ${location}; redirects are not followed, so nothing was sent there`,
      });
    }

    const invalid = (problem: string) =>
      new SitebeamApiError({
        status: response.status,
        code: 'invalid_response',
        message: `${method} ${path} answered ${response.status} ${problem}`,
      });
    let bytes: Uint8Array | undefined;
    try {
      bytes = await readCappedBody(response, limits.answerBytes);
    } catch (cause) {
      throw new SitebeamApiError({
        status: 0,
        code: 'network_error',
        message: `${baseUrl} stopped answering halfway`,
        cause,
      });
    }
    const text = bytes === undefined ? '' : new TextDecoder().decode(bytes);
    options.onAnswer?.({ status: response.status, headers: response.headers, text });
    if (bytes === undefined) {
      throw invalid(`with more than ${limits.answerBytes} bytes, which were not read`);
    }
    const parsed = parseJson(text);
    if (response.ok && parsed?.status === 'ok') {
      const problem = answerProblem(answerName, parsed);
      if (problem) throw invalid(`an answer the contract does not allow: ${problem}`);
      return parsed as T;
    }
    if (!response.ok) {
      throw SitebeamApiError.fromErrorBody(
        response.status,
        parsed ?? {},
        response.headers.get('retry-after'),
        response.headers.get(upstream.cidHeader),
      );
    }
    throw invalid('without "status": "ok"');
  }

  return {
    sendEmail: (message) => call<EmailSent>('email', 'POST', paths.email, message),
    listModels: () => call<ModelList>('models', 'GET', paths.models),
    prompt: async (request) => {
      const answer = await call<PromptResponse>('prompt', 'POST', paths.prompt, request);
      // Models without a score answer null: left out, so no caller prints it.
      if (answer.score === null) delete answer.score;
      return answer;
    },
    loadModel: (model) => call<ModelLoadResponse>('load', 'GET', paths.loadModel(model)),
    track: async (website, headers) => {
      // The service decodes the path before routing: "/", "." or ".." would reach another route.
      if (/\/|^\.\.?$/.test(website)) {
        throw new SitebeamApiError({
          status: 0,
          code: errorCodes.invalidWebsite,
          message: `website: "${website}" cannot be carried in the tracker's path (no "/", not "." or ".."): use a name without them`,
        });
      }
      return call<TrackerRecord>('tracker', 'GET', paths.trackerJson(website), undefined, headers);
    },
  };
}

function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

function parseJson(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}
