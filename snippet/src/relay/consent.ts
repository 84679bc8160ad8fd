// The optional consent checkbox of the contact form and the chat (contract/contact-protocol.md,
// "Consent"): the owner's label and privacy policy, whether a post gives consent, and the
// checkbox of the relay's own pages.
import { isLoopbackHost } from '../client/base-url.js';
import { consentAcceptedTexts, singleLineForbiddenPattern } from '../client/contract.generated.js';
import { envReader, RelayConfigError } from './env.js';
import { escapeHtml } from './html.js';

/** The consent checkbox the owner turns on: off while unset. */
export interface ConsentConfig {
  /** The checkbox's label, plain text on one line, e.g. "I agree that my message is kept to answer me". */
  label: string;
  /** The privacy policy the label links to: https, or plain http on this machine only. */
  policyUrl?: string;
}

/** The environment variable names of an endpoint's checkbox, by the option they set. */
export interface ConsentEnvNames {
  'consent.label': string;
  'consent.policyUrl': string;
}

/** The checkbox from environment variables (unset label: off), refusing a policy without a label. */
export function consentFromEnv(
  env: Record<string, string | undefined>,
  names: ConsentEnvNames,
): ConsentConfig | undefined {
  const read = envReader(env, names);
  const label = read.optional('consent.label');
  const policyUrl = read.optional('consent.policyUrl');
  if (label === undefined) {
    if (policyUrl === undefined) return undefined;
    throw new RelayConfigError(
      names['consent.policyUrl'],
      `is set but ${names['consent.label']} (the checkbox's label, which turns it on) is not`,
    );
  }
  return policyUrl === undefined ? { label } : { label, policyUrl };
}

/** The checked setting, or undefined when the checkbox is off. */
export function resolveConsent(consent: ConsentConfig | undefined): ConsentConfig | undefined {
  if (consent === undefined) return undefined;
  const label = typeof consent.label === 'string' ? consent.label.trim() : '';
  if (!label || singleLineForbiddenPattern.test(label)) {
    throw new RelayConfigError('consent.label', 'must be one non-empty line of text');
  }
  if (consent.policyUrl === undefined) return { label };
  return { label, policyUrl: policyAddress(consent.policyUrl) };
}

function policyAddress(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {}
  const secure =
    url?.protocol === 'https:' || (url?.protocol === 'http:' && isLoopbackHost(url.hostname));
  if (!url || !secure || url.username || url.password) {
    throw new RelayConfigError(
      'consent.policyUrl',
      `must be an https URL without user info (plain http only for localhost and 127.0.0.1), not "${value}"`,
    );
  }
  return url.href;
}

/** What a visitor reads when a post without consent is refused. */
export const consentMissingText = 'Please tick the consent box to send your message.';

/** Whether a posted value gives consent: a JSON `true`, or an accepted text (trimmed, any case). */
export function consentGiven(value: unknown): boolean {
  if (value === true) return true;
  if (typeof value !== 'string') return false;
  return (consentAcceptedTexts as readonly string[]).includes(value.trim().toLowerCase());
}

/** The checkbox for a page without JavaScript, ticked again when the visitor had ticked it. */
export function consentCheckboxHtml(consent: ConsentConfig, name: string, ticked: boolean): string {
  const policy = consent.policyUrl
    ? ` <a href="${escapeHtml(consent.policyUrl)}" target="_blank" rel="noopener">Privacy policy</a>`
    : '';
  return `<p><label><input type="checkbox" name="${name}" value="yes" required${ticked ? ' checked' : ''}> ${escapeHtml(consent.label)}</label>${policy}</p>`;
}
