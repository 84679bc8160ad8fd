// What `sitebeam` exits with: one code per cause a script may want to act on.
import { SitebeamApiError } from '../client/index.js';

export const exitCodes = {
  ok: 0,
  apiError: 1,
  usage: 2,
  credentials: 3,
  notEnabled: 4,
  emailOff: 5,
  rateLimited: 6,
  modelLoading: 7,
  network: 8,
} as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

/** The table printed by `--help` and copied into the README. */
export const exitCodeTable = `Exit codes:
  0  done
  1  any other error answer of the API (400 bad input, 404, 5xx…)
  2  usage: unknown option, missing argument, bad value, file too large
  3  credentials: no instance or token configured, or the token refused (401)
  4  the account is not enabled for this API (403): ask the instance's support or administrator
  5  the instance has email sending switched off, or has no AI API (405)
  6  rate limited (429): the message says how long to wait
  7  the model is still loading (503)
  8  network: the instance unreachable, too slow, or answering with a redirect`;

/** A failure found by the command itself, before or instead of an API call. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
  }
}

export function usageError(message: string): CliError {
  return new CliError(message, exitCodes.usage);
}

export function exitCodeFor(error: SitebeamApiError): ExitCode {
  if (error.code === 'network_error' || error.code === 'timeout') return exitCodes.network;
  if (error.code === 'redirect_refused') return exitCodes.network;
  if (error.code === 'model_loading') return exitCodes.modelLoading;
  switch (error.status) {
    case 401:
      return exitCodes.credentials;
    case 403:
      return exitCodes.notEnabled;
    case 405:
      return exitCodes.emailOff;
    case 429:
      return exitCodes.rateLimited;
    default:
      return exitCodes.apiError;
  }
}

export function isApiError(error: unknown): error is SitebeamApiError {
  return error instanceof SitebeamApiError;
}
