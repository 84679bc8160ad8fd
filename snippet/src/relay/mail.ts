// The /v1/email message a submission becomes: fixed recipient and sender, visitor as reply-to,
// every visitor value escaped and repeated in the body so nothing depends on `replyto`.
import type { EmailMessage } from '../client/index.js';
import type { ResolvedRelayConfig } from './config.js';
import type { Submission } from './submission.js';

export function composeEmail(
  submission: Submission,
  config: Pick<ResolvedRelayConfig, 'contactTo' | 'contactFrom' | 'siteName'>,
): EmailMessage {
  const subject = submission.subject || `Message from ${submission.name}`;
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
  ].join('\n');
  return {
    to: config.contactTo,
    from: config.contactFrom,
    replyto: submission.email,
    subject: `[${config.siteName}] ${subject}`,
    content,
  };
}

const htmlEntities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => htmlEntities[character] ?? character);
}
