// The page a visitor without JavaScript gets after posting the chat form: the answer (or what
// went wrong, with the message kept) and the form again, posting to the same endpoint.
import { type ChatAnswer, chatFields, chatLimits } from '../chat/protocol.js';
import type { ChatRefusal } from './chat-refusal.js';
import { type ConsentConfig, consentCheckboxHtml } from './consent.js';
import { escapeHtml } from './html.js';

export interface ChatPageParts {
  /** The endpoint's path: the form posts there again. */
  action: string;
  /** The site page the visitor came from, when known and allowed. */
  backUrl: string | undefined;
  models: string[];
  /** The consent checkbox the owner turned on, if any. */
  consent?: ConsentConfig | undefined;
  /** What the visitor sent, shown again in the form after a refusal. */
  prompt: { message?: string; model?: string; consent?: boolean };
  outcome: ChatAnswer | ChatRefusal;
  /** The message the answer is for. */
  asked?: string;
}

export function chatPage({
  action,
  backUrl,
  models,
  consent,
  prompt,
  outcome,
  asked,
}: ChatPageParts): string {
  const answered = 'response' in outcome;
  const result = answered
    ? [
        `<section aria-labelledby="asked"><h2 id="asked">You</h2><p style="white-space:pre-wrap">${escapeHtml(asked ?? '')}</p></section>`,
        `<section aria-labelledby="answer"><h2 id="answer">Answer (${escapeHtml(outcome.model)})</h2>`,
        ...outcome.response.map((line) => `<p>${escapeHtml(line)}</p>`),
        scoreLine(outcome.score),
        '</section>',
      ].join('\n')
    : `<p role="alert">${escapeHtml(outcome.error)}</p>`;
  const chosen = prompt.model || models[0];
  const picker =
    models.length > 1
      ? `<p><label for="model">Model</label>
<select id="model" name="${chatFields.model}">${models
          .map(
            (model) =>
              `<option${model === chosen ? ' selected' : ''}>${escapeHtml(model)}</option>`,
          )
          .join('')}</select></p>`
      : '';
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${answered ? 'Chat answer' : 'Message not sent'}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40em;margin:2em auto;padding:0 1em}textarea{width:100%;min-height:6em;box-sizing:border-box;font:inherit}</style>
<main>
<h1>${answered ? 'Chat answer' : 'Message not sent'}</h1>
${result}
<form method="post" action="${escapeHtml(action)}">
<p><label for="message">Message</label>
<textarea id="message" name="${chatFields.message}" required maxlength="${chatLimits.messageMaxChars}">${escapeHtml(prompt.message ?? '')}</textarea></p>
${picker}
${consent ? consentCheckboxHtml(consent, chatFields.consent, prompt.consent === true) : ''}
<div aria-hidden="true" style="position:absolute;left:-9999px"><label>Leave this field empty <input name="${chatFields.honeypot}" tabindex="-1" autocomplete="off"></label></div>
<p><button type="submit">Send</button></p>
</form>
${backUrl ? `<p><a href="${escapeHtml(backUrl)}">Back to the site</a></p>` : ''}
</main>
</html>
`;
}

/** The score written as a number, never as whatever text an instance sent in its place. */
function scoreLine(score: unknown): string {
  return typeof score === 'number' && Number.isFinite(score) ? `<p>Score: ${score}</p>` : '';
}
