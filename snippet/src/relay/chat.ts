// The relay's /chat endpoint: a visitor's message goes to one of the models the site owner
// allows, with the owner's prompt settings and the API token added here, never in the browser.
import {
  CHAT_ALLOWED_METHODS,
  type ChatAnswer,
  type ChatErrorCode,
  type ChatModels,
  chatErrorCodes,
  chatErrorStatus,
  chatFields,
  chatLimits,
  unscoredModels,
} from '../chat/protocol.js';
import { errorCodes, SitebeamApiError } from '../client/index.js';
import { multiLineForbiddenPattern } from '../form/protocol.js';
import { type ChatConfig, resolveChatConfig } from './chat-config.js';
import { chatPage } from './chat-page.js';
import type { ChatRefusal } from './chat-refusal.js';
import { visitorKey } from './client-address.js';
import {
  type EndpointConfig,
  type ResolvedEndpointConfig,
  resolveEndpointConfig,
} from './config.js';
import { consentGiven, consentMissingText } from './consent.js';
import { createDailyBudget } from './daily-budget.js';
import type { RelayHandler } from './handler.js';
import { instanceClient } from './instance-client.js';
import { createPageAccess } from './page-access.js';
import { createRateLimiter } from './rate-limit.js';
import { commonHeaders, jsonResponse, pagePolicy, preflight } from './responses.js';
import { bodyKind, isRefusal, parseFields, readBody } from './submission.js';

/** The path the `sitebeam-relay` command serves the chat on. */
export const CHAT_PATH = '/chat';

interface Prompt {
  model: string;
  message: string;
}

/** What the no-JavaScript page shows again in its form. */
type KeptPrompt = Partial<Prompt> & { consent?: boolean };

const visitorText: Record<ChatErrorCode, string> = {
  invalid_field: 'The message could not be read.',
  spam_suspected: 'The message looks automated and was not sent.',
  forbidden_origin: 'This page may not use this chat.',
  method_not_allowed: 'Send the message with POST.',
  payload_too_large: `The message is too large (more than ${chatLimits.bodyMaxBytes / 1024} KiB).`,
  unsupported_media_type: 'The message must be sent as JSON or as a regular form.',
  rate_limited: 'Too many messages were sent. Please wait a minute and try again.',
  daily_limit_reached: 'The chat is closed for today. Please come back tomorrow.',
  model_loading: 'The model is warming up. Please send the message again in a few seconds.',
  not_configured: 'The chat is not set up yet.',
  upstream_failed: 'The model could not answer right now. Please try again in a moment.',
};

/** Builds the chat handler; throws a RelayConfigError naming the option when a setting is unusable. */
export function createChatHandler(config: EndpointConfig, chat: ChatConfig): RelayHandler {
  const settings = resolveEndpointConfig(config);
  const chatSettings = resolveChatConfig(chat);
  const limiter = createRateLimiter({
    limit: chatSettings.rateLimitPerMinute,
    windowMs: 60_000,
    counter: settings.rateLimitCounter,
    scope: 'chat',
  });
  const budget = chatSettings.dailyLimit
    ? createDailyBudget(chatSettings.dailyLimit, settings.rateLimitCounter)
    : undefined;
  const client = instanceClient(settings);
  const pageAccess = createPageAccess(settings);
  const refusal = (code: ChatErrorCode, field?: string, error = visitorText[code]): ChatRefusal =>
    field ? { code, error, field } : { code, error };

  return async (request, context = {}) => {
    const access = pageAccess(request);
    const { allowedPage, isAllowed, ownOrigin } = access;
    // The widget waits as long as `Retry-After` says: a cross-origin page may only read it if exposed.
    const cors: Record<string, string> = access.cors['access-control-allow-origin']
      ? { ...access.cors, 'access-control-expose-headers': 'retry-after' }
      : {};
    const json = (status: number, body: object, headers: Record<string, string> = {}) =>
      jsonResponse(status, body, { ...cors, ...headers });
    const jsonRefusal = (reason: ChatRefusal) => json(...refusalParts(reason));
    if (request.method === 'OPTIONS') {
      return allowedPage
        ? preflight(cors, CHAT_ALLOWED_METHODS)
        : jsonRefusal(refusal(chatErrorCodes.forbiddenOrigin));
    }
    if (request.method !== 'GET' && request.method !== 'POST') {
      const [status, body] = refusalParts(refusal(chatErrorCodes.methodNotAllowed));
      return json(status, body, { allow: CHAT_ALLOWED_METHODS });
    }
    if (request.method === 'GET') {
      if (!allowedPage) return jsonRefusal(refusal(chatErrorCodes.forbiddenOrigin));
      if (chatSettings.models.length === 0) {
        return jsonRefusal(refusal(chatErrorCodes.notConfigured));
      }
      const listing: ChatModels = { status: 'ok', models: chatSettings.models };
      return json(200, listing);
    }

    const kind = bodyKind(request.headers.get('content-type'));
    const backUrl = backLink(request.headers.get('referer'), ownOrigin, isAllowed);
    const page = (
      status: number,
      prompt: KeptPrompt,
      outcome: ChatAnswer | ChatRefusal,
      asked?: string,
    ) => {
      const action = new URL(request.url).pathname;
      const html = chatPage({
        action,
        backUrl,
        models: chatSettings.models,
        consent: chatSettings.consent,
        prompt,
        outcome,
        asked,
      });
      return new Response(html, { status, headers: htmlHeaders(outcome) });
    };
    // A plain form gets a page; anything else (JSON, or an unknown kind of body) gets JSON.
    const refuse = (reason: ChatRefusal, prompt: KeptPrompt = {}) =>
      kind === 'form' ? page(chatErrorStatus[reason.code], prompt, reason) : jsonRefusal(reason);

    // Every post counts, refused ones included.
    const retryAfter = await limiter.take(
      visitorKey({
        header: settings.clientIpHeader ? request.headers.get(settings.clientIpHeader) : null,
        trustedHops: settings.trustedProxyHops,
        connection: context.clientIp,
      }),
      Date.now(),
    );
    if (retryAfter !== undefined) {
      return refuse({ ...refusal(chatErrorCodes.rateLimited), retryAfter });
    }
    if (!kind) return refuse(refusal(chatErrorCodes.unsupportedMediaType));
    if (!allowedPage) return refuse(refusal(chatErrorCodes.forbiddenOrigin));
    if (chatSettings.models.length === 0) return refuse(refusal(chatErrorCodes.notConfigured));
    const body = await readBody(request, chatLimits.bodyMaxBytes);
    if (isRefusal(body)) return refuse(refusal(chatErrorCodes.payloadTooLarge));
    const fields = parseFields(kind, body);
    if (isRefusal(fields)) return refuse(refusal(chatErrorCodes.invalidField));
    const honeypot = fields[chatFields.honeypot];
    if (honeypot !== undefined && honeypot !== '') {
      return refuse(refusal(chatErrorCodes.spamSuspected));
    }
    const prompt = checkPrompt(fields, chatSettings.models);
    const consent = consentGiven(fields[chatFields.consent]);
    const kept = {
      message: typeof fields[chatFields.message] === 'string' ? (fields.message as string) : '',
      model: typeof fields[chatFields.model] === 'string' ? (fields.model as string) : '',
      consent,
    };
    if ('code' in prompt) return refuse(prompt, kept);
    if (chatSettings.consent && !consent) {
      return refuse(
        refusal(chatErrorCodes.invalidField, chatFields.consent, consentMissingText),
        kept,
      );
    }
    // Only messages that would reach the model spend the owner's day.
    const closedFor = await budget?.take(Date.now());
    if (closedFor !== undefined) {
      return refuse({ ...refusal(chatErrorCodes.dailyLimitReached), retryAfter: closedFor }, kept);
    }

    try {
      const answer = await client.prompt({ ...prompt, settings: chatSettings.settings });
      const reply: ChatAnswer = { status: 'ok', model: prompt.model, response: answer.response };
      // The service sends a null score for models without one: left out, like unscored models.
      const scored = !(unscoredModels as readonly string[]).includes(prompt.model);
      if (scored && typeof answer.score === 'number') reply.score = answer.score;
      return kind === 'json'
        ? json(200, reply)
        : page(200, { model: prompt.model, consent }, reply, prompt.message);
    } catch (error) {
      const failure = upstreamFailure(error, settings.log);
      if (failure.code === chatErrorCodes.modelLoading) {
        // A prompt need not start the load on every instance: ask for it, whatever it answers.
        client.loadModel(prompt.model).catch(() => undefined);
      }
      return refuse(failure, kept);
    }
  };
}

/** Serves `chat` on CHAT_PATH and `contact` on every other path (the `sitebeam-relay` command). */
export function withChat(contact: RelayHandler, chat: RelayHandler): RelayHandler {
  return (request, context) =>
    new URL(request.url).pathname === CHAT_PATH
      ? chat(request, context)
      : contact(request, context);
}

function checkPrompt(fields: Record<string, unknown>, models: string[]): Prompt | ChatRefusal {
  const invalid = (field: string, error: string): ChatRefusal => ({
    code: chatErrorCodes.invalidField,
    error,
    field,
  });
  const message = fields[chatFields.message];
  if (typeof message !== 'string' || !message.trim()) {
    return invalid(chatFields.message, 'Message is required.');
  }
  if ([...message.trim()].length > chatLimits.messageMaxChars) {
    return invalid(
      chatFields.message,
      `Message must be at most ${chatLimits.messageMaxChars.toLocaleString('en')} characters.`,
    );
  }
  if (multiLineForbiddenPattern.test(message)) {
    return invalid(chatFields.message, 'Message holds a control character.');
  }
  const model = fields[chatFields.model];
  if (model === undefined || model === '')
    return { model: models[0] as string, message: message.trim() };
  if (typeof model !== 'string' || !models.includes(model)) {
    return invalid(chatFields.model, `Model must be one of ${models.join(', ')}.`);
  }
  return { model, message: message.trim() };
}

/** What the visitor is told about a failed prompt; the real cause goes to the log only. */
function upstreamFailure(error: unknown, log: ResolvedEndpointConfig['log']): ChatRefusal {
  const failure = (code: ChatErrorCode, retryAfter?: number): ChatRefusal =>
    retryAfter === undefined
      ? { code, error: visitorText[code] }
      : { code, error: visitorText[code], retryAfter };
  if (!(error instanceof SitebeamApiError)) {
    log(`sitebeam-relay: prompting failed unexpectedly: ${String(error)}`);
    return failure(chatErrorCodes.upstreamFailed);
  }
  const retryAfter = Math.max(1, Math.round(error.retryAfterSeconds ?? 0));
  if (error.code === errorCodes.modelLoading)
    return failure(chatErrorCodes.modelLoading, retryAfter);
  const cid = error.cid ? ` (cid ${error.cid})` : '';
  log(
    `sitebeam-relay: the API refused the prompt: ${error.status} ${error.code}: ${error.message}${cid}`,
  );
  if (error.status === 429)
    return failure(chatErrorCodes.rateLimited, error.retryAfterSeconds ?? 60);
  if (error.field === chatFields.message) {
    const reason = error.message.replace(`${error.field}: `, '');
    return {
      code: chatErrorCodes.invalidField,
      field: chatFields.message,
      error: `The AI service refused this message: ${reason}.`,
    };
  }
  // A model the instance does not list, or a setting it refuses, is the owner's to fix, like a
  // refused token or an instance without the AI API.
  const ownersSetting =
    error.field !== undefined ||
    [401, 403, 405].includes(error.status) ||
    error.code === errorCodes.modelNotFound ||
    error.code === errorCodes.cwaiModelNotFound;
  if (ownersSetting) return failure(chatErrorCodes.notConfigured);
  return failure(chatErrorCodes.upstreamFailed);
}

function refusalParts(reason: ChatRefusal): [number, object, Record<string, string>] {
  const body = {
    status: 'ko',
    error: reason.error,
    i18n_code: reason.code,
    ...(reason.field ? { field: reason.field } : {}),
  };
  return [chatErrorStatus[reason.code], body, retryHeader(reason)];
}

function retryHeader(outcome: object): Record<string, string> {
  return 'retryAfter' in outcome && outcome.retryAfter !== undefined
    ? { 'retry-after': String(outcome.retryAfter) }
    : {};
}

function htmlHeaders(outcome: ChatAnswer | ChatRefusal): Record<string, string> {
  return {
    ...commonHeaders,
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `${pagePolicy}; form-action 'self'`,
    ...retryHeader(outcome),
  };
}

/** The site page a native post came from, when it is on an allowed origin. */
function backLink(
  referer: string | null,
  ownOrigin: string | undefined,
  isAllowed: (origin: string) => boolean,
): string | undefined {
  if (!referer) return undefined;
  try {
    const page = new URL(referer);
    return page.origin !== ownOrigin && isAllowed(page.origin) ? page.href : undefined;
  } catch {
    return undefined;
  }
}
