// The consent checkbox both widgets show when the page sets `consent-label` (the owner's text) and
// optionally `consent-url` (the privacy policy, opened in a new tab): contract/contact-protocol.md,
// "Consent".
import { contactFields } from '../form/protocol.js';

/** The checkbox's row and the checkbox, or undefined when `host` has no `consent-label`. */
export function consentCheckbox(
  host: HTMLElement,
  policyText: string,
): [row: HTMLElement, box: HTMLInputElement] | undefined {
  const text = host.getAttribute('consent-label');
  if (!text) return;
  const row = document.createElement('div');
  const label = document.createElement('label');
  const box = document.createElement('input');
  Object.assign(box, {
    type: 'checkbox',
    name: contactFields.consent,
    value: 'yes',
    required: true,
  });
  label.append(box, ` ${text}`);
  row.append(label);
  const url = host.getAttribute('consent-url');
  // Only a web address: the attribute is data, never a `javascript:` link.
  if (url && /^https?:/i.test(url)) {
    const link = document.createElement('a');
    Object.assign(link, { href: url, target: '_blank', rel: 'noopener', textContent: policyText });
    row.append(' ', link);
  }
  return [row, box];
}
