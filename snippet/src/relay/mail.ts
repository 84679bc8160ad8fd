// The /v1/email message a submission becomes: fixed recipient and sender, visitor as reply-to,
// every visitor value escaped and repeated in the body so nothing depends on `replyto`.
import { CONSENT_MAIL_LINE } from '../client/contract.generated.js';
import type { EmailMessage } from '../client/index.js';
import { contactLimits } from '../form/protocol.js';
import type { ResolvedRelayConfig } from './config.js';
import { escapeHtml } from './html.js';
import type { Submission } from './submission.js';

export function composeEmail(
  submission: Submission,
  config: Pick<ResolvedRelayConfig, 'contactTo' | 'contactFrom' | 'siteName' | 'consent'>,
): EmailMessage {
  const row = (label: string, value: string) =>
    `<tr><th align="left" style="padding-right:1em">${label}</th><td>${escapeHtml(value)}</td></tr>`;
  const content = [
    `<p>A visitor wrote through the contact form of ${escapeHtml(config.siteName)}.</p>`,
    '<table>',
    row('Name', submission.name),
    row('Email', submission.email),
    row('Subject', submission.subject || '(none)'),
    '</table>',
    `<div style="white-space:pre-wrap">${escapeHtml(submission.message)}</div>`,
    // Only a post that gave consent reaches here when the checkbox is on.
    ...(config.consent ? [`<p>${escapeHtml(CONSENT_MAIL_LINE + config.consent.label)}</p>`] : []),
  ].join('\n');
  return {
    to: config.contactTo,
    from: config.contactFrom,
    replyto: submission.email,
    subject: composeSubject(
      config.siteName,
      submission.subject || `Message from ${submission.name}`,
    ),
    content,
  };
}

/**
 * `[Site] subject`, at most the API's 998 characters: the site name is shortened (ending with
 * `…`), never the visitor's subject.
 */
export function composeSubject(siteName: string, subject: string): string {
  const room = contactLimits.apiSubjectMaxChars - [...subject].length - '[] '.length;
  const site = [...siteName];
  const prefix =
    site.length <= room ? siteName : `${site.slice(0, Math.max(0, room - 1)).join('')}…`;
  return `[${prefix}] ${subject}`;
}
