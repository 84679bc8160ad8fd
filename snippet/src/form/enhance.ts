// Progressive enhancement of a plain contact form: validate, post JSON, show the outcome.
// Without this script the same form posts natively and the endpoint redirects back.
// (Widget code avoids `?.` and `??`: the ES2017 script-tag build would spell them out at length.)
import {
  type ContactFailure,
  contactDefaults,
  contactErrorCodes,
  contactFields,
  contactLimits,
  emailAddressPattern,
} from './protocol.js';
import { type TextKey, textFor } from './texts.js';

type Field = HTMLInputElement | HTMLTextAreaElement;
type Answer = Partial<Pick<ContactFailure, 'error' | 'field'>> & {
  status?: string;
  i18n_code?: string;
  queued?: boolean;
  message?: string;
};

const enhanced = new WeakSet<HTMLFormElement>();

const checkedFields: [name: string, maxChars: number, required: boolean][] = [
  [contactFields.name, contactLimits.nameMaxChars, true],
  [contactFields.email, contactLimits.emailMaxChars, true],
  [contactFields.subject, contactLimits.subjectMaxChars, false],
  [contactFields.message, contactLimits.messageMaxChars, true],
];

const textForCode: Record<string, TextKey> = {
  [contactErrorCodes.spamSuspected]: 'spam',
  [contactErrorCodes.forbiddenOrigin]: 'forbidden',
  [contactErrorCodes.rateLimited]: 'rateLimited',
  [contactErrorCodes.notConfigured]: 'notConfigured',
};

/** Turns `form` (with `action` = a contact endpoint) into the JavaScript-enhanced widget. */
export function enhanceForm(form: HTMLFormElement): void {
  if (enhanced.has(form)) return;
  enhanced.add(form);
  const field = (name: string) => form.elements.namedItem(name) as Field | null;
  const text = (key: TextKey, target?: Field) => textFor(form, key, target ? labelOf(target) : '');
  let sending = false;
  // A fresh fill-time ticket from the endpoint (GET on the action), asked for on the first focus:
  // [ticket, when it arrived]; the ticket is undefined when the endpoint gave none.
  let ticket: Promise<[string?, number?]> | undefined;
  const fetchTicket = () => {
    ticket = fetch(form.action)
      .then((response) => response.json())
      .then(
        (answer) => [answer.ticket, Date.now()],
        () => [],
      );
  };
  const start = () => {
    if (!ticket) fetchTicket();
  };
  form.addEventListener('focusin', start);

  form.noValidate = true;
  if (!field(contactFields.honeypot)) form.append(honeypot(text('honeypot')));
  let status = form.querySelector<HTMLElement>('[data-sitebeam-status]');
  if (!status) {
    status = document.createElement('p');
    status.setAttribute('role', 'status');
    status.setAttribute('data-sitebeam-status', '');
    form.append(status);
  }
  status.setAttribute('aria-live', 'polite');
  const show = (state: string, message: string) => {
    form.dataset.state = state;
    (status as HTMLElement).textContent = message;
  };
  const refuse = (target: Field, key: TextKey) => {
    target.setAttribute('aria-invalid', 'true');
    show('error', text(key, target));
    target.focus();
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (sending) return;
    for (const invalid of form.querySelectorAll('[aria-invalid]'))
      invalid.removeAttribute('aria-invalid');
    for (const [name, maxChars, required] of checkedFields) {
      const target = field(name);
      if (!target) continue;
      const value = target.value.trim();
      if (required && !value) return refuse(target, 'required');
      if (name === contactFields.email && !emailAddressPattern.test(value))
        return refuse(target, 'emailFormat');
      if ([...value].length > maxChars) return refuse(target, 'tooLong');
    }
    // The owner's consent checkbox (ours or a CMS's; none: an empty stand-in), sent as JSON true.
    const consent = (field(contactFields.consent) || {}) as HTMLInputElement;
    if (consent.required && !consent.checked) return refuse(consent, 'consent');

    const body: Record<string, string | boolean> = {};
    new FormData(form).forEach((value, key) => {
      if (typeof value === 'string') body[key] = value;
    });
    if (consent.checked) body[contactFields.consent] = true;
    const buttons = form.querySelectorAll<HTMLButtonElement>('button,input[type=submit]');
    const focused = document.activeElement as HTMLElement | null;
    sending = true;
    form.setAttribute('aria-busy', 'true');
    for (const button of buttons) button.disabled = true;
    show('sending', text('sending'));
    start();
    const [fresh, arrived = 0] = await (ticket as Promise<[string?, number?]>);
    if (fresh) {
      body[contactFields.ticket] = fresh;
      // Never post before the endpoint's minimum fill time has passed since the ticket's issue.
      const wait = arrived + contactDefaults.minFillMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }

    const outcome = await post(form.action, body);
    sending = false;
    form.removeAttribute('aria-busy');
    for (const button of buttons) button.disabled = false;
    // biome-ignore lint/complexity/useOptionalChain: `?.` costs bytes in the ES2017 script-tag build
    if (focused && focused.isConnected && document.activeElement !== focused) focused.focus();

    if (outcome === 'network') return show('error', text('network'));
    const [httpStatus, answer] = outcome;
    if (answer.status === 'ok' && httpStatus < 300) {
      form.reset();
      // Kept for later (202, queued): received, not sent yet, in the endpoint's own words.
      return show('sent', answer.queued && answer.message ? answer.message : text('sent'));
    }
    if (answer.field === contactFields.ticket) fetchTicket();
    const refused = answer.field ? field(answer.field) : null;
    if (answer.i18n_code === contactErrorCodes.invalidField && refused)
      return refuse(refused, refused === consent ? 'consent' : 'invalid');
    const key =
      textForCode[answer.i18n_code || ''] || (httpStatus === 429 ? 'rateLimited' : 'server');
    show('error', text(key));
  });
}

async function post(url: string, body: object): Promise<'network' | [number, Answer]> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    return 'network';
  }
  try {
    return [response.status, await response.json()];
  } catch {
    return [response.status, {}];
  }
}

function labelOf(target: Field): string {
  const labels = target.labels;
  const label = labels ? labels[0] : null;
  return ((label ? label.textContent : '') || target.name).trim();
}

function honeypot(label: string): HTMLElement {
  const wrapper = document.createElement('div');
  wrapper.setAttribute('aria-hidden', 'true');
  wrapper.style.cssText = 'position:absolute;left:-9999px';
  const input = document.createElement('input');
  input.name = contactFields.honeypot;
  input.tabIndex = -1;
  input.autocomplete = 'off';
  const labelElement = document.createElement('label');
  labelElement.append(label, input);
  wrapper.append(labelElement);
  return wrapper;
}
