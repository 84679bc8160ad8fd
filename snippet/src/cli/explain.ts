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
    return `${model} is still loading${said}: try again ${wait}, or run \`sitebeam load ${model} --wait\``;
  }
  switch (error.status) {
    case 0:
      return error.message;
    case 401:
      return `the instance refused the token${said}: check it, or run \`sitebeam login\` again`;
    case 403:
      return `${forbiddenWhat(error.code)} is not enabled for this account${said}: ask the instance's support or administrator to enable it`;
    case 405:
      return `the instance has email sending switched off${said}: its administrator has to switch it on`;
    case 429:
      return `rate limited${said}: try again ${wait}`;
    default:
      if (error.code === 'invalid_response') {
        return `the instance's answer cannot be used: ${error.message}; is something else answering at that URL?`;
      }
      return error.code === 'redirect_refused'
        ? error.message
        : `the API answered ${error.status} ${error.code}: ${error.message}${error.cid ? ` (cid ${error.cid})` : ''}`;
  }
}

function forbiddenWhat(code: string): string {
  if (code === errorCodes.notEmailApi) return 'email sending';
  if (code === errorCodes.notAiApi) return 'the AI API';
  return 'this API';
}

function waitText(seconds: number | undefined): string {
  if (seconds === undefined) return 'later';
  return `in ${seconds} s`;
}
