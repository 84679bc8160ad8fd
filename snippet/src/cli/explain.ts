// The words a site owner reads when the API says no: the cause first, then what to do about it.
import { errorCodes, type SitebeamApiError } from '../client/index.js';

export interface ExplainContext {
  /** The model the command was about, for a 503 model_loading. */
  model?: string | undefined;
}

export function explainApiError(error: SitebeamApiError, context: ExplainContext = {}): string {
  const said = error.status > 0 ? ` (${error.status} ${error.code}: ${error.message})` : '';
  const wait = waitText(error.retryAfterSeconds);
  if (error.code === errorCodes.modelLoading) {
    const model = context.model ?? 'the model';
    return `${model} is still loading${said}: try again ${wait}`;
  }
  switch (error.status) {
    case 0:
      return error.message;
    case 401:
      return `the instance refused the token${said}: check it, or run \`sitebeam login\` again`;
    case 403:
      if (error.code === errorCodes.accountNotConfirmed) {
        return `this account is not confirmed yet${said}: confirm it on the instance first`;
      }
      return `${forbiddenWhat(error.code)} is not enabled for this account${said}: ask the instance's support or administrator to enable it`;
    case 405:
      return aiCodes.has(error.code)
        ? `${aiUnavailable(error)}${said}`
        : `the instance has email sending switched off${said}: its administrator has to switch it on`;
    case 429:
      return `rate limited${said}: try again ${wait}`;
    default:
      if (error.field !== undefined) {
        return `the instance refused ${optionOf(error.field)}: ${error.reason} (${error.status})`;
      }
      if (error.status >= 500) {
        return `the instance failed (${error.status}: ${error.message}${error.cid ? `, cid ${error.cid}` : ''}): try again later; if it persists, tell its administrator`;
      }
      if (error.code === 'invalid_response') {
        return `the instance's answer cannot be used: ${error.message}; is something else answering at that URL?`;
      }
      return error.code === 'redirect_refused'
        ? error.message
        : `the API answered ${error.status} ${error.code}: ${error.message}${error.cid ? ` (cid ${error.cid})` : ''}`;
  }
}

// The codes with which the service says its AI API is absent (405) or not enabled (403).
const aiCodes: ReadonlySet<string> = new Set([
  errorCodes.cwaiNotImplemented,
  errorCodes.cwaiApiNotEnabled,
  errorCodes.notAiApi,
  errorCodes.notCwaiApi,
]);

/** Why the AI API cannot be used: absent from this instance (405) or not enabled for the account. */
export function aiUnavailable(error: SitebeamApiError): string {
  if (error.status === 405)
    return 'this instance has no AI API (its release does not implement it)';
  if (error.code === errorCodes.accountNotConfirmed) return 'this account is not confirmed yet';
  return 'the AI API is not enabled for this account';
}

// A request field as the command line names it: the option that sets it, where there is one.
const optionOfField: Readonly<Record<string, string>> = {
  to: '--to',
  subject: '--subject',
  content: '--content',
  from: '--from',
  cc: '--cc',
  bcc: '--bcc',
  replyto: '--reply-to',
  attachment: '--attach',
};

function optionOf(field: string): string {
  if (field.startsWith('settings.')) return `--set ${field.slice('settings.'.length)}`;
  return optionOfField[field] ?? `the field "${field}"`;
}

function forbiddenWhat(code: string): string {
  if (code === errorCodes.notEmailApi) return 'email sending';
  if (aiCodes.has(code)) return 'the AI API';
  return 'this API';
}

function waitText(seconds: number | undefined): string {
  if (seconds === undefined) return 'later';
  return `in ${seconds} s`;
}
