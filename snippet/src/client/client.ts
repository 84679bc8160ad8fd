import { baseUrlProblem } from './base-url.js';
import {
  AUTH_HEADER,
  type EmailMessage,
  type EmailSent,
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
  const timeoutMs = options.timeoutMs ?? 15_000;
  const fetchImpl = options.fetch ?? globalThis.fetch;

  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
    if (options.token !== undefined) headers[AUTH_HEADER] = options.token;
    if (body !== undefined) headers['content-type'] = 'application/json';

    let response: Response;
    try {
      response = await fetchImpl(baseUrl + path, {
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

    const parsed = await readJson(response);
    if (response.ok && parsed?.status === 'ok') return parsed as T;
    if (!response.ok) {
      throw SitebeamApiError.fromErrorBody(
        response.status,
        parsed ?? {},
        response.headers.get('retry-after'),
        response.headers.get(upstream.cidHeader),
      );
    }
    throw new SitebeamApiError({
      status: response.status,
      code: 'invalid_response',
      message: `${method} ${path} answered ${response.status} without "status": "ok"`,
    });
  }

  return {
    sendEmail: (message) => call<EmailSent>('POST', paths.email, message),
    listModels: () => call<ModelList>('GET', paths.models),
    prompt: (request) => call<PromptResponse>('POST', paths.prompt, request),
    loadModel: (model) => call<ModelLoadResponse>('GET', paths.loadModel(model)),
    track: (website, headers) =>
      call<TrackerRecord>('GET', paths.trackerJson(website), undefined, headers),
  };
}

function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

async function readJson(response: Response): Promise<Json | undefined> {
  try {
    const value: unknown = await response.json();
    return typeof value === 'object' && value !== null ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}
