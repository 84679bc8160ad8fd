// `<sitebeam-chat action="…">`: a conversation with the models a chat endpoint allows, rendered
// in the light DOM so the site's font and colours apply; themable with --sitebeam-* properties.
// Whatever the element holds (a plain form for visitors without JavaScript) is replaced, except
// hidden inputs, which are posted with every message (a CMS's anti-CSRF token).
// (Widget code avoids `?.` and `??`: the ES2017 script-tag build would spell them out at length.)

import { consentCheckbox } from '../widget/consent.js';
import { adoptStyle, defineWidget } from '../widget/element.js';
import {
  type ChatAnswer,
  type ChatFailure,
  type ChatModels,
  chatErrorCodes,
  chatFields,
  chatLimits,
  chatWidget,
} from './protocol.js';
import { type ChatTextKey, chatText } from './texts.js';

type Answer = Partial<ChatAnswer> & Partial<ChatFailure>;

const css =
  'sitebeam-chat{display:block;max-width:40em}' +
  '.sitebeam-chat{display:grid;gap:var(--sitebeam-gap,1em)}' +
  '.sitebeam-chat-log:not(:empty){display:grid;gap:.5em;max-height:var(--sitebeam-chat-height,24em);overflow:auto;padding:.5em;border:1px solid var(--sitebeam-border,currentColor);border-radius:var(--sitebeam-radius,4px)}' +
  '.sitebeam-chat-log p{margin:0;white-space:pre-wrap}' +
  '.sitebeam-chat-you{font-weight:600}' +
  '.sitebeam-chat label{display:block;font-weight:600}' +
  '.sitebeam-chat textarea,.sitebeam-chat select,.sitebeam-chat button{font:inherit;color:inherit;padding:.5em;border:1px solid var(--sitebeam-border,currentColor);border-radius:var(--sitebeam-radius,4px);background:var(--sitebeam-field,none)}' +
  '.sitebeam-chat textarea{width:100%;box-sizing:border-box;min-height:4em}' +
  '.sitebeam-chat button{padding:.5em 1.5em;margin-right:.5em}' +
  '.sitebeam-chat [type=submit]{background:var(--sitebeam-accent,none);color:var(--sitebeam-accent-text,inherit)}' +
  '[data-state=error]>[role=status]{color:var(--sitebeam-error,inherit);font-weight:600}';

const textForCode: Record<string, ChatTextKey> = {
  [chatErrorCodes.invalidField]: 'invalid',
  [chatErrorCodes.forbiddenOrigin]: 'forbidden',
  [chatErrorCodes.rateLimited]: 'rateLimited',
  [chatErrorCodes.dailyLimitReached]: 'closedToday',
  [chatErrorCodes.notConfigured]: 'notConfigured',
  [chatErrorCodes.modelLoading]: 'stillWarming',
};

let chatCount = 0;

/** Defines the custom element (once) under `tag`. */
export function defineChat(tag = 'sitebeam-chat'): void {
  defineWidget(tag, render);
}

const element = <K extends keyof HTMLElementTagNameMap>(
  name: K,
  className = '',
  text = '',
): HTMLElementTagNameMap[K] => {
  const created = document.createElement(name);
  if (className) created.className = `sitebeam-chat-${className}`;
  created.textContent = text;
  return created;
};

function render(host: HTMLElement): void {
  if (host.querySelector('.sitebeam-chat')) return;
  adoptStyle(css);
  const action = host.getAttribute('action') || '';
  const prefix = `sitebeam-chat-${++chatCount}-`;
  const text = (key: ChatTextKey, value?: string) => chatText(host, key, value);
  const hidden = Array.from(host.querySelectorAll<HTMLInputElement>('input[type=hidden]'));

  const form = element('form');
  form.className = 'sitebeam-chat';
  // The widget says what is missing itself (the consent box), in the page's language.
  form.noValidate = true;
  const log = element('div', 'log');
  log.setAttribute('role', 'log');
  log.setAttribute('aria-live', 'polite');
  log.setAttribute('aria-label', text('log'));
  log.tabIndex = 0;
  const input = element('textarea');
  Object.assign(input, { id: `${prefix}message`, name: chatFields.message, rows: 3 });
  input.maxLength = chatLimits.messageMaxChars;
  const inputLabel = element('label', '', text('message'));
  inputLabel.htmlFor = input.id;
  const picker = element('select');
  picker.id = `${prefix}model`;
  picker.name = chatFields.model;
  const pickerLabel = element('label', '', text('model'));
  pickerLabel.htmlFor = picker.id;
  const pickerRow = element('div');
  pickerRow.append(pickerLabel, picker);
  pickerRow.hidden = true;
  const status = element('p');
  status.setAttribute('role', 'status');
  const send = element('button', '', text('send'));
  send.type = 'submit';
  const startOver = element('button', '', text('startOver'));
  startOver.type = 'button';
  const buttons = element('div');
  buttons.append(send, startOver);
  const inputRow = element('div');
  inputRow.append(inputLabel, input);
  const [consentRow, box] = consentCheckbox(host, text('privacy')) || [];
  host.textContent = '';
  form.append(log, pickerRow, inputRow);
  if (consentRow) form.append(consentRow);
  form.append(buttons, status);
  host.append(form);

  const show = (key: ChatTextKey | '', state = '') => {
    form.dataset.state = state;
    status.textContent = key ? text(key) : '';
  };
  let busy = false;

  request(action).then(([httpStatus, answer]) => {
    const models = answer.models || [];
    if (httpStatus === 200 && models.length > 1) {
      for (const model of models) picker.append(element('option', '', model));
      pickerRow.hidden = false;
    } else if (answer.i18n_code === chatErrorCodes.notConfigured) show('notConfigured', 'error');
  });

  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  startOver.addEventListener('click', () => {
    log.textContent = '';
    show('');
    input.focus();
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (busy) return;
    const message = input.value.trim();
    input.focus();
    if (!message) return show('required', 'error');
    if ([...message].length > chatLimits.messageMaxChars) return show('tooLong', 'error');
    // Refused here or by the endpoint (whose owner may ask for consent the page does not show).
    const refuseConsent = () => {
      if (box) {
        box.setAttribute('aria-invalid', 'true');
        box.focus();
      }
      show('consent', 'error');
    };
    const body: Record<string, string | boolean> = { [chatFields.message]: message };
    if (box) {
      box.removeAttribute('aria-invalid');
      if (!box.checked) return refuseConsent();
      body[chatFields.consent] = true;
    }
    if (!pickerRow.hidden) body[chatFields.model] = picker.value;
    for (const field of hidden) body[field.name] = field.value;

    busy = true;
    form.setAttribute('aria-busy', 'true');
    show('sending', 'sending');
    let outcome = await request(action, body);
    for (
      let retries = chatWidget.loadingRetries;
      retries > 0 && outcome[1].i18n_code === chatErrorCodes.modelLoading;
      retries--
    ) {
      show('warming', 'warming');
      await new Promise((wake) => setTimeout(wake, outcome[2] * 1000));
      outcome = await request(action, body);
    }
    busy = false;
    form.removeAttribute('aria-busy');

    const [httpStatus, answer] = outcome;
    if (answer.field === chatFields.consent) return refuseConsent();
    if (httpStatus === 200 && answer.response) {
      addTurn(log, text('you'), message, answer, text);
      input.value = '';
      return show('');
    }
    show(
      httpStatus
        ? textForCode[answer.i18n_code || ''] || (httpStatus === 429 ? 'rateLimited' : 'server')
        : 'network',
      'error',
    );
  });
}

function addTurn(
  log: HTMLElement,
  you: string,
  message: string,
  answer: Answer,
  text: (key: ChatTextKey, value?: string) => string,
): void {
  const turn = element('div', 'turn');
  const asked = element('p', 'you');
  asked.append(element('span', 'who', `${you}: `), message);
  const reply = element('div', 'answer');
  reply.append(element('span', 'who', `${answer.model}:`));
  for (const line of answer.response as string[]) reply.append(element('p', '', line));
  if (typeof answer.score === 'number') {
    reply.append(element('p', 'score', text('score', String(answer.score))));
  }
  turn.append(asked, reply);
  log.append(turn);
  log.scrollTop = log.scrollHeight;
}

/** GET (no body) or POST JSON; answers the status (0: no answer), the JSON and the seconds to wait. */
async function request(
  url: string,
  body?: object,
): Promise<[status: number, answer: Answer & Partial<ChatModels>, retryAfter: number]> {
  try {
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      headers: body
        ? { 'content-type': 'application/json', accept: 'application/json' }
        : { accept: 'application/json' },
      body: body ? JSON.stringify(body) : null,
    });
    const wait = Number(response.headers.get('retry-after')) || 1;
    return [
      response.status,
      await response.json().catch(() => ({})),
      Math.min(Math.max(wait, 1), chatWidget.retryAfterMaxS),
    ];
  } catch {
    return [0, {}, 1];
  }
}
