// `<sitebeam-contact-form action="…">`: renders a labelled contact form in the light DOM, so the
// site's own font and colours apply, then enhances it. Themable with --sitebeam-* properties.

import { consentCheckbox } from '../widget/consent.js';
import { adoptStyle, defineWidget } from '../widget/element.js';
import { enhanceForm } from './enhance.js';
import { contactFields, contactLimits } from './protocol.js';
import { type TextKey, textFor } from './texts.js';

const css =
  'sitebeam-contact-form{display:block}' +
  '.sitebeam-form{display:grid;gap:var(--sitebeam-gap,1em);max-width:36em}' +
  '.sitebeam-form label{display:block;font-weight:600}' +
  '.sitebeam-form input,.sitebeam-form textarea,.sitebeam-form button{font:inherit;color:inherit;padding:.5em;border:1px solid var(--sitebeam-border,currentColor);border-radius:var(--sitebeam-radius,4px);background:var(--sitebeam-field,none)}' +
  '.sitebeam-form input,.sitebeam-form textarea{width:100%;box-sizing:border-box}' +
  '.sitebeam-form textarea{min-height:8em}' +
  '.sitebeam-form [type=checkbox]{width:auto;margin-right:.5em}' +
  '.sitebeam-form button{justify-self:start;padding:.5em 1.5em;background:var(--sitebeam-accent,none);color:var(--sitebeam-accent-text,inherit)}' +
  '.sitebeam-form [aria-invalid=true],[data-state=error]>[role=status]{border-color:var(--sitebeam-error,currentColor);color:var(--sitebeam-error,inherit);font-weight:600}';

const renderedFields: [name: string, key: TextKey, maxLength: number, autocomplete: string][] = [
  [contactFields.name, 'name', contactLimits.nameMaxChars, 'name'],
  [contactFields.email, 'email', contactLimits.emailMaxChars, 'email'],
  [contactFields.subject, 'subject', contactLimits.subjectMaxChars, 'off'],
  [contactFields.message, 'message', contactLimits.messageMaxChars, 'off'],
];

let formCount = 0;

/** Defines the custom element (once) under `tag`. */
export function defineContactForm(tag = 'sitebeam-contact-form'): void {
  defineWidget(tag, render);
}

function render(host: HTMLElement): void {
  if (host.querySelector('.sitebeam-form')) return;
  adoptStyle(css);
  const form = document.createElement('form');
  const prefix = `sitebeam-${++formCount}-`;
  Object.assign(form.dataset, host.dataset);
  form.className = 'sitebeam-form';
  form.method = 'post';
  form.action = host.getAttribute('action') || '';
  form.setAttribute('data-sitebeam-form', '');
  // Children the page put inside are posted too.
  const extras = Array.from(host.childNodes);
  for (const [name, key, maxLength, autocomplete] of renderedFields) {
    const control = document.createElement(name === contactFields.message ? 'textarea' : 'input');
    const label = document.createElement('label');
    const wrapper = document.createElement('div');
    Object.assign(control, { id: prefix + name, name, maxLength, autocomplete });
    control.required = key !== 'subject';
    if (name === contactFields.email) control.setAttribute('type', 'email');
    label.htmlFor = control.id;
    label.textContent = textFor(host, key);
    wrapper.append(label, control);
    form.append(wrapper);
  }
  const [consentRow] = consentCheckbox(host, textFor(host, 'privacy')) || [];
  if (consentRow) form.append(consentRow);
  const button = document.createElement('button');
  button.textContent = textFor(host, 'send');
  form.append(...extras, button);
  host.append(form);
  enhanceForm(form);
}
